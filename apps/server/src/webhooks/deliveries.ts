/**
 * Recent webhook deliveries of a workspace, read from the `jobs` table (kind `webhook`), newest
 * first: what `trove-server webhooks deliveries` prints.
 *
 *   await listDeliveries(db, { workspaceId, endpointId?, limit?, maxAttempts? })
 *
 * Status: `pending` (waiting for its first attempt or a retry, or being sent now), `delivered`
 * (a 2xx), `failed` (gave up: attempts used up, URL refused by the SSRF guard, workspace gone).
 * Finished deliveries disappear with their jobs after TROVE_JOB_RETENTION_HOURS.
 */
import type { Prisma, PrismaClient } from "../generated/prisma/client.js";
import { WEBHOOK_JOB_KIND, type WebhookJobPayload } from "./delivery.js";

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface DeliveryRow {
  /** The job id. */
  id: string;
  createdAt: Date;
  eventType: string;
  /** The endpoint id, or null for an upload's one-off `webhook_url`. */
  endpointId: string | null;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  /** Attempts before it fails for good. */
  maxAttempts: number;
  /** The last attempt's failure (`receiver answered HTTP 503`, a network error), if any. */
  lastError: string | null;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: Date | null;
}

export async function listDeliveries(
  db: Pick<PrismaClient, "job">,
  input: { workspaceId: string; endpointId?: string; limit?: number; maxAttempts?: number },
): Promise<DeliveryRow[]> {
  const where: Prisma.JobWhereInput[] = [
    { kind: WEBHOOK_JOB_KIND },
    { payload: { path: ["workspaceId"], equals: input.workspaceId } },
  ];
  if (input.endpointId !== undefined) {
    where.push({ payload: { path: ["endpointId"], equals: input.endpointId.toLowerCase() } });
  }
  const jobs = await db.job.findMany({
    where: { AND: where },
    orderBy: [{ createdAt: "desc" }, { seq: "desc" }],
    take: input.limit ?? 50,
  });
  return jobs.map((job) => {
    const payload = job.payload as unknown as WebhookJobPayload;
    const status: DeliveryStatus =
      job.status === "succeeded" ? "delivered" : job.status === "failed" ? "failed" : "pending";
    return {
      id: job.id,
      createdAt: job.createdAt,
      eventType: payload.event.type,
      endpointId: payload.endpointId ?? null,
      url: payload.url,
      status,
      attempts: job.attempts,
      maxAttempts: Math.min(job.maxAttempts, input.maxAttempts ?? job.maxAttempts),
      lastError: job.lastError,
      nextAttemptAt: status === "pending" ? job.runAt : null,
    };
  });
}
