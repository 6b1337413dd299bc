// `@trove/sdk/admin`: the admin API client (`/admin/v1`) without Node built-ins, for a page that
// authenticates another way than the token. In a browser-like runtime createAdminClient needs a
// `fetch` of the page's own (the console's sends the session cookie and strips the Authorization
// header), and the `adminToken` given is then a placeholder: a real admin token can create keys
// for every workspace and must never be in a page. On servers it is the client `@trove/sdk/node`
// exports.
import {
  type AdminClientOptions,
  createAdminClient as adminClient,
  type TroveAdminClient,
} from "./internal/admin/create-admin-client.js";

export type { AdminKey, AdminWorkspace, CreatedKey } from "@trove/schema";
export type { AdminClientOptions, TroveAdminClient } from "./internal/admin/create-admin-client.js";
export type { AdminKeysResource, CreateKeyBody } from "./internal/admin/keys.js";
export type { AdminTransformsResource, NamedTransform } from "./internal/admin/transforms.js";
export type {
  AdminWebhookDeliveriesResource,
  ListWebhookDeliveriesOptions,
  WebhookDelivery,
} from "./internal/admin/webhook-deliveries.js";
export type {
  AddWebhookEndpointBody,
  AdminWebhookEndpointsResource,
  AdminWebhooksResource,
  RotateWebhookSecretOptions,
  WebhookEndpoint,
  WebhookSecret,
} from "./internal/admin/webhooks.js";
export type {
  AdminWorkspacesResource,
  CreateWorkspaceBody,
  DeletedWorkspace,
  DeleteWorkspaceOptions,
  ListWorkspacesQuery,
  UpdateWorkspaceBody,
  WorkspaceList,
} from "./internal/admin/workspaces.js";
export * from "./internal/errors.js";

/** The admin API with the server's admin token, or (in a page) a session-authenticating `fetch`. */
export function createAdminClient(options: AdminClientOptions): TroveAdminClient {
  return adminClient(options, undefined, "with-fetch");
}
