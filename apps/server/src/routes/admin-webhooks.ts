/**
 * Admin API, webhooks (endpoints 109-113, 117-118): the workspace's signing secret (show, rotate
 * with a grace), its endpoints (add, list, remove) and its recent deliveries (list, send again),
 * through the functions the CLI uses (src/webhooks/workspace-secrets.ts, src/webhooks/endpoints.ts,
 * src/webhooks/deliveries.ts).
 */
import type { FastifyPluginAsync } from "fastify";
import { endpointResource } from "../admin/admin-resources.js";
import { workspaceOr404 } from "../admin/workspace-lookup.js";
import { badRequest, HttpError } from "../errors/index.js";
import { isRemoteFetchError } from "../network/remote-fetch-error.js";
import { type DeliveryRow, listDeliveries, redeliver } from "../webhooks/deliveries.js";
import {
  addEndpoint,
  EndpointEventTypesError,
  listEndpoints,
  removeEndpoint,
} from "../webhooks/endpoints.js";
import {
  currentWebhookSecret,
  previousSecretInGrace,
  rotateWebhookSecret,
} from "../webhooks/workspace-secrets.js";
import { registerEndpoint } from "./endpoint-route.js";

export const adminWebhookRoutes: FastifyPluginAsync = async (app) => {
  const { secretKey } = app.config;

  registerEndpoint(app, "adminGetWebhookSecret", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    const secret = await currentWebhookSecret(app.db, secretKey, workspace.id);
    // A secret sealed with another TROVE_SECRET_KEY cannot be shown; rotating replaces it.
    if (!secret)
      throw new HttpError(409, "The webhook secret cannot be read with this server's secret key; rotate it");
    const previous = previousSecretInGrace(workspace, secretKey);
    return { secret, previous_expires_at: previous?.expiresAt.toISOString() ?? null };
  });

  registerEndpoint(app, "adminRotateWebhookSecret", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    const rotated = await rotateWebhookSecret(app.db, {
      secretKey,
      workspaceId: workspace.id,
      graceMs: request.body.grace_seconds * 1000,
    });
    if (!rotated) throw new HttpError(404, "Workspace not found");
    return { secret: rotated.secret, previous_expires_at: rotated.previousExpiresAt?.toISOString() ?? null };
  });

  registerEndpoint(app, "adminCreateWebhookEndpoint", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    try {
      const endpoint = await addEndpoint(app.db, {
        workspaceId: workspace.id,
        url: request.body.url,
        eventTypes: request.body.events,
        trustedRanges: app.config.trustedRanges,
      });
      return endpointResource(endpoint);
    } catch (error) {
      if (isRemoteFetchError(error) || error instanceof EndpointEventTypesError)
        throw badRequest(error.message);
      throw error;
    }
  });

  registerEndpoint(app, "adminListWebhookEndpoints", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    return { endpoints: (await listEndpoints(app.db, workspace.id)).map(endpointResource) };
  });

  registerEndpoint(app, "adminDeleteWebhookEndpoint", async (request, reply) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    if (!(await removeEndpoint(app.db, workspace.id, request.params.endpointId))) {
      throw new HttpError(404, "Webhook endpoint not found");
    }
    return reply.send();
  });

  registerEndpoint(app, "adminListWebhookDeliveries", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    const rows = await listDeliveries(app.db, {
      workspaceId: workspace.id,
      limit: request.query.limit,
      maxAttempts: app.config.webhooks.maxAttempts,
      ...(request.query.endpoint_id === undefined ? {} : { endpointId: request.query.endpoint_id }),
    });
    return rows.map(deliveryResource);
  });

  registerEndpoint(app, "adminRedeliverWebhook", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    const row = await redeliver(app.db, {
      workspaceId: workspace.id,
      deliveryId: request.params.deliveryId,
      maxAttempts: app.config.webhooks.maxAttempts,
    });
    if (!row) throw new HttpError(404, "Webhook delivery not found");
    app.jobRunner?.wake();
    return deliveryResource(row);
  });
};

function deliveryResource(row: DeliveryRow) {
  return {
    id: row.id,
    event_type: row.eventType,
    endpoint_id: row.endpointId,
    url: row.url,
    status: row.jobStatus,
    attempts: row.attempts,
    max_attempts: row.maxAttempts,
    response_status: row.responseStatus,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
