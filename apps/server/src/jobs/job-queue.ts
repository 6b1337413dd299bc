/**
 * The durable job table (`jobs`, Prisma model `Job`): enqueue, claim, complete, retry, fail.
 *
 * Claiming is one statement, `UPDATE jobs ... WHERE id IN (SELECT id ... FOR UPDATE SKIP LOCKED
 * LIMIT n) RETURNING ...`, so any number of server instances can poll the same table: a row locked
 * by one claimer is skipped by the others, and the claimed rows leave `pending` in the same statement.
 * Every time comparison uses the database clock (`now()`), never an instance's clock.
 *
 * `attempts` counts started attempts: it is incremented when a job is claimed, so a job whose worker
 * died mid-run (its `locked_until` passes and another instance reclaims it) still uses up an attempt.
 * Results are written only while the writer still holds the lock (`locked_by` matches, status
 * `running`), so a worker that overran its lock cannot overwrite the new owner's outcome.
 *
 * Ordered jobs: jobs enqueued with the same `orderKey` run one at a time, in insertion order (`seq`):
 * a job is not claimed while an earlier one with its key is `pending` or `running`, so a retrying
 * job holds back the later ones until it succeeds or fails for good.
 *
 * Finished jobs (`succeeded`, `failed`) are deleted after a retention period: deleteFinishedJobs.
 */
import type { Prisma, PrismaClient } from "../generated/prisma/client.js";

/** What enqueueing needs: a client or an interactive-transaction client (`tx`). */
export type JobWriter = Pick<PrismaClient, "job"> | Pick<Prisma.TransactionClient, "job">;
/** What claiming and recording results need. */
export type JobDb = Pick<PrismaClient, "$queryRaw" | "$executeRaw">;

export interface EnqueueJobInput {
  kind: string;
  payload: Prisma.InputJsonValue;
  /** Attempts before the job is marked `failed` (table default 10). */
  maxAttempts?: number;
  /** Earliest start (default: now). */
  runAt?: Date;
  /** Jobs sharing a key run one after another, in enqueue order (see the module comment). */
  orderKey?: string;
  /** The workspace the job belongs to, where listing a workspace's jobs matters (webhooks). */
  workspaceId?: string;
}

export interface ClaimedJob<P = unknown> {
  id: string;
  kind: string;
  payload: P;
  /** Attempts started so far, this one included (1 on the first run). */
  attempts: number;
  maxAttempts: number;
  lockedUntil: Date;
  createdAt: Date;
}

/** Inserts a `pending` job. Cheap: call it from a request (or inside its transaction) without waiting on any work. */
export async function enqueueJob(db: JobWriter, input: EnqueueJobInput): Promise<{ id: string }> {
  const job = await db.job.create({
    data: {
      kind: input.kind,
      payload: input.payload,
      ...(input.maxAttempts === undefined ? {} : { maxAttempts: input.maxAttempts }),
      ...(input.runAt === undefined ? {} : { runAt: input.runAt }),
      ...(input.orderKey === undefined ? {} : { orderKey: input.orderKey }),
      ...(input.workspaceId === undefined ? {} : { workspaceId: input.workspaceId }),
    },
    select: { id: true },
  });
  return job;
}

export interface ClaimOptions {
  workerId: string;
  /** Kinds this worker can run; others are left for workers that can. */
  kinds: readonly string[];
  limit: number;
  /** How long the claim holds before another worker may take the job over, ms. */
  lockMs: number;
}

interface ClaimedRow {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  lockedUntil: Date;
  createdAt: Date;
}

/**
 * Atomically claims up to `limit` due jobs: `pending` with `run_at <= now()`, or `running` with an
 * expired lock (their worker died), and not held back by an earlier job of their `order_key`.
 * Oldest `run_at` first.
 */
export async function claimJobs(db: JobDb, options: ClaimOptions): Promise<ClaimedJob[]> {
  if (options.kinds.length === 0 || options.limit <= 0) return [];
  const kinds = [...options.kinds];
  // RETURNING keeps no order; the outer SELECT hands the batch back oldest first.
  const rows = await db.$queryRaw<ClaimedRow[]>`
    WITH claimed AS (
      UPDATE "jobs" AS j
         SET "status" = 'running',
             "attempts" = j."attempts" + 1,
             "locked_by" = ${options.workerId},
             "locked_until" = now() + (${options.lockMs}::int * interval '1 millisecond'),
             "updated_at" = now()
       WHERE j."id" IN (
               SELECT c."id" FROM "jobs" AS c
                WHERE c."kind" = ANY(${kinds}::text[])
                  AND ((c."status" = 'pending' AND c."run_at" <= now())
                    OR (c."status" = 'running' AND c."locked_until" < now()))
                  AND (c."order_key" IS NULL OR NOT EXISTS (
                        SELECT 1 FROM "jobs" AS e
                         WHERE e."order_key" = c."order_key" AND e."seq" < c."seq"
                           AND e."status" IN ('pending', 'running')))
                ORDER BY c."run_at"
                LIMIT ${options.limit}::int
                FOR UPDATE SKIP LOCKED
             )
      RETURNING j."id", j."kind", j."payload", j."attempts", j."max_attempts", j."run_at",
                j."locked_until", j."created_at"
    )
    SELECT "id"::text AS "id", "kind", "payload", "attempts", "max_attempts" AS "maxAttempts",
           "locked_until" AS "lockedUntil", "created_at" AS "createdAt"
      FROM claimed
     ORDER BY "run_at", "id"`;
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.maxAttempts),
    lockedUntil: new Date(row.lockedUntil),
    createdAt: new Date(row.createdAt),
  }));
}

/** Marks a claimed job `succeeded`. Returns false if the lock was lost meanwhile. */
export async function completeJob(db: JobDb, id: string, workerId: string): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE "jobs"
       SET "status" = 'succeeded', "locked_by" = NULL, "locked_until" = NULL, "last_error" = NULL,
           "updated_at" = now()
     WHERE "id" = ${id}::uuid AND "locked_by" = ${workerId} AND "status" = 'running'`;
  return count === 1;
}

/** Puts a claimed job back to `pending`, due `delayMs` from now (database clock), recording the error. */
export async function retryJob(
  db: JobDb,
  id: string,
  workerId: string,
  error: string,
  delayMs: number,
): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE "jobs"
       SET "status" = 'pending', "locked_by" = NULL, "locked_until" = NULL,
           "run_at" = now() + (${Math.max(0, Math.round(delayMs))}::int * interval '1 millisecond'),
           "last_error" = ${truncateError(error)}, "updated_at" = now()
     WHERE "id" = ${id}::uuid AND "locked_by" = ${workerId} AND "status" = 'running'`;
  return count === 1;
}

/** Marks a claimed job `failed` for good, recording the error. */
export async function failJob(db: JobDb, id: string, workerId: string, error: string): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE "jobs"
       SET "status" = 'failed', "locked_by" = NULL, "locked_until" = NULL,
           "last_error" = ${truncateError(error)}, "updated_at" = now()
     WHERE "id" = ${id}::uuid AND "locked_by" = ${workerId} AND "status" = 'running'`;
  return count === 1;
}

const MAX_ERROR_LENGTH = 2_000;

function truncateError(error: string): string {
  return error.length > MAX_ERROR_LENGTH ? `${error.slice(0, MAX_ERROR_LENGTH - 1)}…` : error;
}

/**
 * Deletes jobs that finished (`succeeded` or `failed`) more than `olderThanMs` ago, every kind, at
 * most `limit` per call so that a large backlog never holds one long statement. Returns how many.
 */
export async function deleteFinishedJobs(
  db: JobDb,
  options: { olderThanMs: number; limit?: number },
): Promise<number> {
  return db.$executeRaw`
    DELETE FROM "jobs"
     WHERE "id" IN (
             SELECT "id" FROM "jobs"
              WHERE "status" IN ('succeeded', 'failed')
                AND "updated_at" < now() - (${Math.max(0, Math.round(options.olderThanMs))}::bigint * interval '1 millisecond')
              LIMIT ${options.limit ?? 10_000}::int)`;
}

/**
 * Records the HTTP status a webhook job's receiver answered on the attempt under way (null: no
 * answer), while the job is still `running`, so a stale worker's write cannot land on a later attempt's row.
 */
export async function recordJobResponseStatus(db: JobDb, id: string, status: number | null): Promise<void> {
  await db.$executeRaw`
    UPDATE "jobs" SET "last_response_status" = ${status}::int
     WHERE "id" = ${id}::uuid AND "status" = 'running'`;
}
