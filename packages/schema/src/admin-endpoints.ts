/**
 * The admin API's endpoints (`/admin/v1/...`), declared like the public ones (./endpoints.ts) and
 * documented in the same OpenAPI document. Every one takes the server's admin token
 * (`Authorization: Bearer <TROVE_ADMIN_TOKEN>`, key requirement `admin`), never a workspace key;
 * a server without an admin token does not register them, so they answer 404 like unknown routes.
 * Numbers start at 101 to stay clear of the public API's.
 */
import {
  adminKeySchema,
  adminWorkspaceSchema,
  createdKeySchema,
  createKeyBodySchema,
  createWebhookEndpointBodySchema,
  createWorkspaceBodySchema,
  deleteWorkspaceQuerySchema,
  deleteWorkspaceResponseSchema,
  keyIdParamsSchema,
  listKeysResponseSchema,
  listNamedTransformsResponseSchema,
  listWebhookEndpointsResponseSchema,
  listWorkspacesQuerySchema,
  listWorkspacesResponseSchema,
  namedTransformSchema,
  rotateWebhookSecretBodySchema,
  setNamedTransformBodySchema,
  transformNameParamsSchema,
  updateWorkspaceBodySchema,
  webhookEndpointParamsSchema,
  webhookEndpointSchema,
  webhookSecretResponseSchema,
  workspaceNoParamsSchema,
} from "./admin.js";
import type { EndpointDefinition } from "./endpoint-definition.js";
import { routeOf } from "./route-table.js";
import {
  listWebhookDeliveriesQuerySchema,
  listWebhookDeliveriesResponseSchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
} from "./webhook-deliveries.js";

export const ADMIN_ENDPOINTS = [
  {
    ...routeOf("adminCreateWorkspace"),
    summary: "Create a workspace",
    body: createWorkspaceBodySchema,
    response: adminWorkspaceSchema,
    errors: [400, 409],
  },
  {
    ...routeOf("adminListWorkspaces"),
    summary: "List workspaces",
    query: listWorkspacesQuerySchema,
    response: listWorkspacesResponseSchema,
    errors: [400],
  },
  {
    ...routeOf("adminGetWorkspace"),
    summary: "Workspace details",
    params: workspaceNoParamsSchema,
    response: adminWorkspaceSchema,
    errors: [404],
  },
  {
    ...routeOf("adminUpdateWorkspace"),
    summary: "Rename, disable or enable a workspace, or switch strict transforms",
    params: workspaceNoParamsSchema,
    body: updateWorkspaceBodySchema,
    response: adminWorkspaceSchema,
    errors: [400, 404],
  },
  {
    ...routeOf("adminDeleteWorkspace"),
    summary: "Delete a workspace (refused while it holds files unless force=true)",
    params: workspaceNoParamsSchema,
    query: deleteWorkspaceQuerySchema,
    response: deleteWorkspaceResponseSchema,
    errors: [400, 404, 409],
  },
  {
    ...routeOf("adminCreateKey"),
    summary: "Create an API key (the secret is shown once)",
    params: workspaceNoParamsSchema,
    body: createKeyBodySchema,
    response: createdKeySchema,
    errors: [400, 404],
  },
  {
    ...routeOf("adminListKeys"),
    summary: "List a workspace's API keys (never their secrets)",
    params: workspaceNoParamsSchema,
    response: listKeysResponseSchema,
    errors: [404],
  },
  {
    ...routeOf("adminRevokeKey"),
    summary: "Revoke an API key",
    params: keyIdParamsSchema,
    response: adminKeySchema,
    errors: [404],
  },
  {
    ...routeOf("adminGetWebhookSecret"),
    summary: "The workspace's webhook signing secret",
    params: workspaceNoParamsSchema,
    response: webhookSecretResponseSchema,
    errors: [404],
  },
  {
    ...routeOf("adminRotateWebhookSecret"),
    summary: "Rotate the webhook signing secret (the old one signs during the grace)",
    params: workspaceNoParamsSchema,
    body: rotateWebhookSecretBodySchema,
    response: webhookSecretResponseSchema,
    errors: [400, 404],
  },
  {
    ...routeOf("adminCreateWebhookEndpoint"),
    summary: "Register a webhook endpoint",
    params: workspaceNoParamsSchema,
    body: createWebhookEndpointBodySchema,
    response: webhookEndpointSchema,
    errors: [400, 404],
  },
  {
    ...routeOf("adminListWebhookEndpoints"),
    summary: "List webhook endpoints",
    params: workspaceNoParamsSchema,
    response: listWebhookEndpointsResponseSchema,
    errors: [404],
  },
  {
    ...routeOf("adminDeleteWebhookEndpoint"),
    summary: "Remove a webhook endpoint",
    params: webhookEndpointParamsSchema,
    errors: [404],
  },
  {
    ...routeOf("adminSetNamedTransform"),
    summary: "Create or replace a named transform",
    params: transformNameParamsSchema,
    body: setNamedTransformBodySchema,
    response: namedTransformSchema,
    errors: [400, 404],
  },
  {
    ...routeOf("adminListNamedTransforms"),
    summary: "List named transforms",
    params: workspaceNoParamsSchema,
    response: listNamedTransformsResponseSchema,
    errors: [404],
  },
  {
    ...routeOf("adminDeleteNamedTransform"),
    summary: "Remove a named transform",
    params: transformNameParamsSchema,
    errors: [400, 404],
  },
  {
    ...routeOf("adminListWebhookDeliveries"),
    summary: "Recent webhook deliveries, newest first (finished ones are kept for TROVE_JOB_RETENTION_HOURS)",
    params: workspaceNoParamsSchema,
    query: listWebhookDeliveriesQuerySchema,
    response: listWebhookDeliveriesResponseSchema,
    errors: [400, 404],
  },
  {
    ...routeOf("adminRedeliverWebhook"),
    summary: "Send a delivery again: a new delivery with the same body and webhook-id",
    params: webhookDeliveryParamsSchema,
    response: webhookDeliverySchema,
    errors: [404],
  },
] as const satisfies readonly EndpointDefinition[];
