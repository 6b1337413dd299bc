/**
 * Workspace events: what happened to a workspace's files and folders, delivered to every endpoint
 * the workspace registered for that event type (./endpoints.ts).
 *
 *   await emitWorkspaceEvent(tx, { workspaceId, type: "file.renamed", data, subject: file.id });
 *
 * Call it inside the transaction that makes the change: the delivery jobs commit with the change or
 * not at all, so a receiver never hears of a change that was rolled back, nor misses one that was
 * made. Nothing is sent from the request: the job runner delivers (./delivery.ts), signed, retried.
 *
 * `subject` orders deliveries: jobs of one subject to one endpoint share an `order_key`, so a
 * later event (the delete) is never delivered before an earlier one (the rename) has been
 * delivered or has failed for good. Events of different subjects are delivered independently.
 */
import { randomUUID } from "node:crypto";
import type { RawQuery } from "../db/direct-sql.js";
import { Prisma } from "../generated/prisma/client.js";
import { traceContextOf } from "../tracing/trace-context.js";
import { WEBHOOK_JOB_KIND, type WebhookEvent, type WebhookJobPayload } from "./delivery.js";

/** Every event type an endpoint can subscribe to. */
export const WORKSPACE_EVENT_TYPES = [
  "file.uploaded",
  "file.deleted",
  "file.renamed",
  "file.updated",
  "folder.created",
  "folder.renamed",
  "folder.deleted",
] as const;

export type WorkspaceEventType = (typeof WORKSPACE_EVENT_TYPES)[number];

/** An endpoint subscribed to this receives every event type. */
export const ALL_EVENTS = "*";

/**
 * Attempts stored on an endpoint delivery. The effective limit is TROVE_WEBHOOK_MAX_ATTEMPTS, which
 * the delivery handler applies when it runs (its upper bound is this), so callers need no config.
 */
export const EVENT_JOB_MAX_ATTEMPTS = 100;

/** What emitting needs: a transaction client (or a client). */
export type EventDb = Pick<Prisma.TransactionClient, "webhookEndpoint" | "job">;

export interface WorkspaceEventInput {
  workspaceId: string;
  type: WorkspaceEventType;
  /** The event's `data`, JSON-serialisable (./event-data.ts builds the usual ones). */
  data: unknown;
  /** What the event is about (a file or folder id): deliveries of one subject keep their order. */
  subject: string;
  /** When it happened (default: now). */
  at?: Date;
}

/** Order key of the deliveries of one subject to one endpoint. */
export function deliveryOrderKey(endpointId: string, subject: string): string {
  return `webhook:${endpointId}:${subject}`.slice(0, 255);
}

/**
 * An SQL expression, true when an endpoint of the workspace receives `type`: for a statement that
 * must decide it in its own snapshot (an upload's row, src/uploads/insert-file-row.ts).
 */
export function subscribedSql(workspaceId: string, type: WorkspaceEventType): Prisma.Sql {
  // The `&&` overlap is Prisma's `hasSome`.
  return Prisma.sql`EXISTS (
    SELECT 1 FROM webhook_endpoints
    WHERE workspace_id = ${workspaceId}::uuid AND event_types && ARRAY[${type}, ${ALL_EVENTS}]::text[]
  )`;
}

/** Whether any endpoint of the workspace receives `type` (lets a caller skip a transaction). */
export async function hasSubscribers(
  db: RawQuery,
  workspaceId: string,
  type: WorkspaceEventType,
): Promise<boolean> {
  const [row] = await db.$queryRaw<Array<{ subscribed: boolean }>>`
    SELECT ${subscribedSql(workspaceId, type)} AS subscribed`;
  return row?.subscribed === true;
}

/** Enqueues one delivery per endpoint subscribed to `type`. Returns how many. */
export async function emitWorkspaceEvent(tx: EventDb, input: WorkspaceEventInput): Promise<number> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { workspaceId: input.workspaceId, eventTypes: { hasSome: [input.type, ALL_EVENTS] } },
    select: { id: true, url: true },
    orderBy: { createdAt: "asc" },
  });
  if (endpoints.length === 0) return 0;
  const event: WebhookEvent = {
    type: input.type,
    timestamp: (input.at ?? new Date()).toISOString(),
    // A plain JSON copy: what is stored is exactly what will be sent.
    data: JSON.parse(JSON.stringify(input.data)) as unknown,
  };
  const traceContext = traceContextOf();
  const { count } = await tx.job.createMany({
    data: endpoints.map((endpoint) => {
      const payload: WebhookJobPayload = {
        workspaceId: input.workspaceId,
        endpointId: endpoint.id,
        url: endpoint.url,
        webhookId: `msg_${randomUUID()}`,
        event,
        ...(traceContext ? { traceContext } : {}),
      };
      return {
        kind: WEBHOOK_JOB_KIND,
        workspaceId: input.workspaceId,
        payload: payload as unknown as Prisma.InputJsonValue,
        maxAttempts: EVENT_JOB_MAX_ATTEMPTS,
        orderKey: deliveryOrderKey(endpoint.id, input.subject),
      };
    }),
  });
  return count;
}
