/**
 * Webhook endpoints of a workspace: URLs that receive its events (./workspace-events.ts).
 *
 *   await addEndpoint(db, { workspaceId, url, eventTypes: ["file.uploaded"], trustedRanges })
 *   await listEndpoints(db, workspaceId)
 *   await removeEndpoint(db, workspaceId, endpointId)   // false: no such endpoint in the workspace
 *
 * The URL is checked as an upload's `webhook_url` is (checkWebhookUrl: http(s), no credentials, no
 * refused IP literal); host names are checked by the SSRF guard at every delivery, on the
 * addresses they resolve to then. Removing an endpoint drops its deliveries not started yet.
 */
import { isUuid } from "../errors/params.js";
import type { PrismaClient, WebhookEndpoint } from "../generated/prisma/client.js";
import type { TrustedRangesInput } from "../network/trusted-ranges.js";
import { checkWebhookUrl, WEBHOOK_JOB_KIND } from "./delivery.js";
import { ALL_EVENTS, WORKSPACE_EVENT_TYPES, type WorkspaceEventType } from "./workspace-events.js";

type EndpointDb = Pick<PrismaClient, "webhookEndpoint" | "$transaction" | "$executeRaw">;

/** An event type list an endpoint cannot have. */
export class EndpointEventTypesError extends Error {
  override name = "EndpointEventTypesError";
}

/** Checks and de-duplicates event types: known types, or `*` alone. */
export function parseEventTypes(input: readonly string[]): Array<WorkspaceEventType | typeof ALL_EVENTS> {
  const types = [...new Set(input.map((type) => type.trim()).filter((type) => type !== ""))];
  if (types.length === 0) throw new EndpointEventTypesError("Give at least one event type, or * for all");
  if (types.includes(ALL_EVENTS)) {
    if (types.length > 1)
      throw new EndpointEventTypesError("* already means every event type; give it alone");
    return [ALL_EVENTS];
  }
  const unknown = types.filter((type) => !(WORKSPACE_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0) {
    throw new EndpointEventTypesError(
      `Unknown event type ${unknown.join(", ")}; known: ${WORKSPACE_EVENT_TYPES.join(", ")} (or *)`,
    );
  }
  return types as WorkspaceEventType[];
}

export async function addEndpoint(
  db: Pick<PrismaClient, "webhookEndpoint">,
  input: {
    workspaceId: string;
    url: string;
    eventTypes: readonly string[];
    trustedRanges?: TrustedRangesInput;
  },
): Promise<WebhookEndpoint> {
  const url = checkWebhookUrl(input.url, { trustedRanges: input.trustedRanges }).toString();
  const eventTypes = parseEventTypes(input.eventTypes);
  return db.webhookEndpoint.create({ data: { workspaceId: input.workspaceId, url, eventTypes } });
}

export function listEndpoints(
  db: Pick<PrismaClient, "webhookEndpoint">,
  workspaceId: string,
): Promise<WebhookEndpoint[]> {
  return db.webhookEndpoint.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } });
}

export async function removeEndpoint(
  db: EndpointDb,
  workspaceId: string,
  endpointId: string,
): Promise<boolean> {
  if (!isUuid(endpointId)) return false;
  return db.$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.deleteMany({ where: { id: endpointId, workspaceId } });
    if (count === 0) return false;
    // Deliveries in progress finish; the ones waiting would go to a URL nobody wants called now.
    await tx.$executeRaw`
      DELETE FROM jobs
       WHERE kind = ${WEBHOOK_JOB_KIND} AND status = 'pending'
         AND payload->>'endpointId' = ${endpointId.toLowerCase()}`;
    return true;
  });
}
