/**
 * Recent webhook deliveries of a workspace, read from the `jobs` table (kind `webhook`, through
 * the `workspace_id` column and its index), newest first: what `trove-server webhooks deliveries`
 * prints and the admin API lists; and redelivery, a new job with the same payload.
 *
 *   await listDeliveries(db, { workspaceId, endpointId?, limit?, maxAttempts? })
 *   await redeliver(db, { workspaceId, deliveryId, maxAttempts? })   // null: no such delivery here
 *
 * Status: `pending` (waiting for its first attempt or a retry, or being sent now), `delivered`
 * (a 2xx), `failed` (gave up: attempts used up, URL refused by the SSRF guard, workspace gone).
 * Finished deliveries disappear with their jobs after TROVE_JOB_RETENTION_HOURS.
 */
import type { Job, Prisma, PrismaClient } from "../generated/prisma/client.js";
import { enqueueJob } from "../jobs/job-queue.js";
import { WEBHOOK_JOB_KIND, type WebhookJobPayload } from "./delivery.js";

export type DeliveryStatus = "pending" | "delivered" | "failed";
/** The job's own status: `running` while an attempt is being sent. */
export type DeliveryJobStatus = "pending" | "running" | "succeeded" | "failed";

export interface DeliveryRow {
  /** The job id. */
  id: string;
  createdAt: Date;
  /** When the job last changed (enqueued, attempted, finished). */
  updatedAt: Date;
  eventType: string;
  /** The endpoint id, or null for an upload's one-off `webhook_url`. */
  endpointId: string | null;
  url: string;
  status: DeliveryStatus;
  jobStatus: DeliveryJobStatus;
  attempts: number;
  /** Attempts before it fails for good. */
  maxAttempts: number;
  /** The last attempt's failure (`receiver answered HTTP 503`, a network error), if any. */
  lastError: string | null;
  /** The receiver's HTTP status on the last attempt; null: no answer (network error) or not tried yet. */
  responseStatus: number | null;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: Date | null;
}

export async function listDeliveries(
  db: Pick<PrismaClient, "job">,
  input: { workspaceId: string; endpointId?: string; limit?: number; maxAttempts?: number },
): Promise<DeliveryRow[]> {
  const where: Prisma.JobWhereInput[] = [{ workspaceId: input.workspaceId }, { kind: WEBHOOK_JOB_KIND }];
  if (input.endpointId !== undefined) {
    where.push({ payload: { path: ["endpointId"], equals: input.endpointId.toLowerCase() } });
  }
  const jobs = await db.job.findMany({
    where: { AND: where },
    orderBy: [{ createdAt: "desc" }, { seq: "desc" }],
    take: input.limit ?? 50,
  });
  return jobs.map((job) => deliveryRow(job, input.maxAttempts));
}

/**
 * Sends a delivery again: a new `pending` job with the same payload, so the same event body and
 * the same `webhook-id` (receivers that drop repeats by it still can), to the same URL, signed
 * afresh when it runs. Returns the new delivery, or null when `deliveryId` is not one of the
 * workspace's deliveries (unknown, another workspace's, or removed by retention).
 */
export async function redeliver(
  db: Pick<PrismaClient, "job">,
  input: { workspaceId: string; deliveryId: string; maxAttempts?: number },
): Promise<DeliveryRow | null> {
  const original = await db.job.findFirst({
    where: { id: input.deliveryId, workspaceId: input.workspaceId, kind: WEBHOOK_JOB_KIND },
  });
  if (!original) return null;
  const { traceContext: _dropped, ...payload } = original.payload as unknown as WebhookJobPayload;
  // No order key: a resend is the operator's, not held back behind (or holding back) newer events.
  const created = await enqueueJob(db, {
    kind: WEBHOOK_JOB_KIND,
    workspaceId: input.workspaceId,
    payload: payload as unknown as Prisma.InputJsonValue,
    maxAttempts: original.maxAttempts,
  });
  const job = await db.job.findUniqueOrThrow({ where: { id: created.id } });
  return deliveryRow(job, input.maxAttempts);
}

function deliveryRow(job: Job, maxAttempts: number | undefined): DeliveryRow {
  const payload = job.payload as unknown as WebhookJobPayload;
  const status: DeliveryStatus =
    job.status === "succeeded" ? "delivered" : job.status === "failed" ? "failed" : "pending";
  return {
    id: job.id,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    eventType: payload.event.type,
    endpointId: payload.endpointId ?? null,
    url: payload.url,
    status,
    jobStatus: job.status,
    attempts: job.attempts,
    maxAttempts: Math.min(job.maxAttempts, maxAttempts ?? job.maxAttempts),
    lastError: job.lastError,
    responseStatus: job.lastResponseStatus,
    nextAttemptAt: status === "pending" ? job.runAt : null,
  };
}
