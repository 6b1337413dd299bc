/**
 * The placeholder sweep: computes the placeholders of files marked pending
 * (`placeholder_attempts IS NOT NULL`), a batch at a time, on a timer of each instance that runs
 * workers (src/jobs/start-workers.ts).
 *
 * Why a sweep over the files table rather than one queued job per upload: the upload's insert
 * marks the row pending in the same statement (src/uploads/insert-file-row.ts), so an upload
 * pays nothing more than a column (no round trip, no jobs row and its indexes, no claim and
 * completion per file); the work is durable because the mark is the row itself (a restart, or
 * another instance, finds it); and a batch is resolved in a few statements: one read of the
 * pending rows, one look-up of already computed placeholders of the same bytes (a placeholder
 * depends only on the content, so every copy of an image shares its first one's), and one update.
 *
 * Outcomes, per file: computed (or copied) → columns set, mark cleared; the image cannot be
 * decoded or breaks a media limit → mark cleared with the placeholder null, never retried (the
 * bytes will not change); the stored object cannot be read → attempt counted, and after
 * MAX_ATTEMPTS the mark is cleared with null; a gate given and full → left for the next sweep.
 *
 * Several instances may sweep at once: they may compute the same file twice (the same result;
 * the update is idempotent), never lose one. `updated_at` is not touched: the placeholder is
 * derived from the bytes, not a change to the file.
 */
import type { FastifyBaseLogger } from "fastify";
import type { RenderGate } from "../delivery/render-gate.js";
import { RenderBusyError } from "../delivery/render-gate.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { ImageInput } from "../media/image-input.js";
import type { MediaLimits } from "../media/media-limits.js";
import { decodeError } from "../media/sharp-error.js";
import type { StorageDriver } from "../storage/driver.js";
import { imageInputOf } from "../storage/object-keys.js";
import { computePlaceholder, type Placeholder } from "./compute-placeholder.js";

/** Failed reads of the stored object before the sweep gives up on a file. */
export const MAX_ATTEMPTS = 5;
const DEFAULT_BATCH_SIZE = 200;
/** Batches per sweep at most, so that one sweep ends and the timer's interval holds. */
const MAX_BATCHES = 20;
/**
 * Decoding stops after this long in one sweep (what is left waits for the next): a backlog of
 * distinct images (10 ms each) never holds a sweep, or a shutdown waiting for it, for minutes.
 */
const DEFAULT_MAX_SWEEP_MS = 2_000;

export interface PlaceholderSweepDeps {
  db: Pick<PrismaClient, "$queryRaw" | "$executeRaw">;
  storage: StorageDriver;
  limits: MediaLimits;
  /**
   * A gate the decodes wait their turn at. The server gives none: the sweep decodes one image at
   * a time, and sharing delivery's gate would let background work refuse (503) a render someone
   * is waiting for.
   */
  renderGate?: Pick<RenderGate, "run"> | undefined;
  log?: Pick<FastifyBaseLogger, "warn"> | undefined;
  batchSize?: number;
  /** Time one sweep may spend decoding, ms (2 s). */
  maxSweepMs?: number;
}

export interface PlaceholderSweepResult {
  /** Files whose placeholder was decoded from their bytes. */
  computed: number;
  /** Files that took the placeholder of another file with the same bytes. */
  copied: number;
  /** Files left without one for good, and why (a media error's code, or the read error). */
  unusable: Array<{ fileId: string; reason: string }>;
  /** Files whose object could not be read this time (tried again next sweep). */
  retried: number;
}

interface PendingRow {
  id: string;
  workspaceId: string;
  hash: string;
  storageKey: string;
  attempts: number;
}

type Outcome =
  | { kind: "done"; placeholder: Placeholder | null; reason?: string }
  | { kind: "retry"; reason: string }
  | { kind: "busy" };

export async function sweepPlaceholders(deps: PlaceholderSweepDeps): Promise<PlaceholderSweepResult> {
  const result: PlaceholderSweepResult = { computed: 0, copied: 0, unusable: [], retried: 0 };
  const batchSize = deps.batchSize ?? DEFAULT_BATCH_SIZE;
  const deadline = Date.now() + (deps.maxSweepMs ?? DEFAULT_MAX_SWEEP_MS);
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const pending = await readPending(deps.db, batchSize);
    const { busy } = await resolveBatch(deps, pending, result, deadline);
    // A short batch was the last one; a busy gate, the deadline, or only retries left, waits for
    // the next sweep.
    if (pending.length < batchSize || busy || result.retried > 0) break;
  }
  return result;
}

async function readPending(db: PlaceholderSweepDeps["db"], limit: number): Promise<PendingRow[]> {
  return db.$queryRaw<PendingRow[]>`
    SELECT id::text AS id, workspace_id::text AS "workspaceId", hash, storage_key AS "storageKey",
           placeholder_attempts AS attempts
      FROM files
     WHERE placeholder_attempts IS NOT NULL
     ORDER BY file_no
     LIMIT ${limit}::int`;
}

async function resolveBatch(
  deps: PlaceholderSweepDeps,
  pending: PendingRow[],
  result: PlaceholderSweepResult,
  deadline: number,
): Promise<{ busy: boolean }> {
  if (pending.length === 0) return { busy: false };
  const groups = new Map<string, PendingRow[]>();
  for (const row of pending) {
    const key = `${row.workspaceId}:${row.hash}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const known = await knownPlaceholders(
    deps.db,
    [...groups.values()].map((rows) => rows[0]!),
  );
  const updates: Array<{ row: PendingRow; outcome: Outcome }> = [];
  let busy = false;
  for (const [key, rows] of groups) {
    const copied = known.get(key);
    let outcome: Outcome;
    if (copied) {
      outcome = { kind: "done", placeholder: copied };
      result.copied += rows.length;
    } else {
      // One decode per distinct content; its copies in this batch share it.
      // Past the deadline the rest of the batch waits, like a busy gate (copies above still go).
      if (!busy && Date.now() >= deadline) busy = true;
      outcome = busy ? { kind: "busy" } : await placeholderOf(deps, rows[0]!);
      if (outcome.kind === "busy") busy = true;
      else if (outcome.kind === "retry") result.retried += rows.length;
      else if (outcome.placeholder) result.computed += rows.length;
      else for (const row of rows) result.unusable.push({ fileId: row.id, reason: outcome.reason ?? "" });
    }
    for (const row of rows) updates.push({ row, outcome });
  }
  await writeOutcomes(deps.db, updates);
  return { busy };
}

/** A computed placeholder of the same bytes in the same workspace, by `workspace:hash`. */
async function knownPlaceholders(
  db: PlaceholderSweepDeps["db"],
  rows: PendingRow[],
): Promise<Map<string, Placeholder>> {
  const found = await db.$queryRaw<
    Array<{ workspaceId: string; hash: string; thumbhash: string; color: string; dataUrl: string }>
  >`
    SELECT g.workspace_id::text AS "workspaceId", g.hash, p.placeholder_thumbhash AS thumbhash,
           p.placeholder_color AS color, p.placeholder_data_url AS "dataUrl"
      FROM unnest(${rows.map((r) => r.workspaceId)}::uuid[], ${rows.map((r) => r.hash)}::text[])
           AS g(workspace_id, hash)
     CROSS JOIN LATERAL (
           SELECT placeholder_thumbhash, placeholder_color, placeholder_data_url
             FROM files f
            WHERE f.workspace_id = g.workspace_id AND f.hash = g.hash
              AND f.placeholder_thumbhash IS NOT NULL AND f.placeholder_data_url IS NOT NULL
            LIMIT 1) p`;
  return new Map(
    found.map((row) => [
      `${row.workspaceId}:${row.hash}`,
      { thumbhash: row.thumbhash, color: row.color, dataUrl: row.dataUrl },
    ]),
  );
}

async function placeholderOf(deps: PlaceholderSweepDeps, row: PendingRow): Promise<Outcome> {
  let input: ImageInput;
  try {
    input = await imageInputOf(deps.storage, row.storageKey, deps.limits.maxInputBytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    deps.log?.warn({ err: error, fileId: row.id }, "placeholder: stored object could not be read");
    return row.attempts + 1 >= MAX_ATTEMPTS
      ? { kind: "done", placeholder: null, reason }
      : { kind: "retry", reason };
  }
  const compute = () => computePlaceholder(input, deps.limits);
  try {
    const placeholder = deps.renderGate ? await deps.renderGate.run(compute) : await compute();
    return { kind: "done", placeholder };
  } catch (error) {
    if (error instanceof RenderBusyError) return { kind: "busy" };
    // The bytes decide: a file that failed to decode (or broke a limit) fails the same way again.
    const refusal = decodeError(error, deps.limits);
    const reason = refusal instanceof Error && "code" in refusal ? String(refusal.code) : String(refusal);
    return { kind: "done", placeholder: null, reason };
  }
}

async function writeOutcomes(
  db: PlaceholderSweepDeps["db"],
  updates: Array<{ row: PendingRow; outcome: Outcome }>,
): Promise<void> {
  const written = updates.filter((u) => u.outcome.kind !== "busy");
  if (written.length === 0) return;
  const done = (u: (typeof written)[number]) => (u.outcome.kind === "done" ? u.outcome.placeholder : null);
  await db.$executeRaw`
    UPDATE files AS f
       SET placeholder_thumbhash = v.thumbhash, placeholder_color = v.color,
           placeholder_data_url = v.data_url, placeholder_attempts = v.attempts
      FROM unnest(${written.map((u) => u.row.id)}::uuid[],
                  ${written.map((u) => done(u)?.thumbhash ?? null)}::text[],
                  ${written.map((u) => done(u)?.color ?? null)}::text[],
                  ${written.map((u) => done(u)?.dataUrl ?? null)}::text[],
                  ${written.map((u) => (u.outcome.kind === "retry" ? u.row.attempts + 1 : null))}::int[])
           AS v(id, thumbhash, color, data_url, attempts)
     WHERE f.id = v.id AND f.placeholder_attempts IS NOT NULL`;
}
