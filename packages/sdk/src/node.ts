// The Node build of `@trove/sdk`: what `import "@trove/sdk"` resolves to in Node (the package's
// `node` export condition), and `@trove/sdk/node` for code that names it. Everything of the main
// entry, with clients whose upload() also takes a file path (or file: URL) and a Node Readable,
// and a SessionStore in a file; both clients send a POST again when the connection was refused,
// send the parts of a file path without a copy held for redirects (file-part-fetch.ts), and stream
// a direct upload's form body from its file, never held whole (send-direct-upload.ts).
// Only this entry imports `node:*`, so browser bundles of the other entries never see it.
// createAdminClient (the admin API, with the server's admin token) is here and only here: the
// token is a server secret, so no browser entry carries the client that sends it.
import type { Readable } from "node:stream";
import {
  type AdminClientOptions,
  createAdminClient as adminClient,
  type TroveAdminClient,
} from "./internal/admin/create-admin-client.js";
import type { ClientOptions, UploadClientOptions } from "./internal/client/client-options.js";
import { fullClient, type TroveClient } from "./internal/client/create-client.js";
import { type TroveUploadClient, uploadOnlyClient } from "./internal/client/create-upload-client.js";
import { withFilePartBodies } from "./internal/node/file-part-fetch.js";
import { resolveNodeInput } from "./internal/node/node-upload-input.js";
import { requestNotSent } from "./internal/request/index.js";
import { sessionResume } from "./internal/upload/resumable-store.js";
import { streamInputs } from "./internal/upload/stream-inputs.js";
import type { UploadInput } from "./internal/upload/upload-input.js";

export type { AdminKey, AdminWorkspace, CreatedKey } from "@trove/schema";
export * from "./index.js";
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
export { fileSessionStore } from "./internal/node/file-session-store.js";

/** Web inputs, plus a file path, a `file:` URL or a Node Readable. */
export type NodeUploadInput = UploadInput | string | URL | Readable;

export function createClient(options: ClientOptions): TroveClient<NodeUploadInput> {
  return fullClient(
    { ...options, fetch: withFilePartBodies(options.fetch) },
    resolveNodeInput,
    requestNotSent,
  );
}

export function createUploadClient(options: UploadClientOptions): TroveUploadClient<NodeUploadInput> {
  return uploadOnlyClient(
    // Node Readables and file paths are read as streams, and any store (fileSessionStore) resumes:
    // the Node client always has that code.
    { ...options, streams: streamInputs, fetch: withFilePartBodies(options.fetch) },
    resolveNodeInput,
    requestNotSent,
    sessionResume,
  );
}

/** The admin API (`/admin/v1`) with the server's admin token: workspaces, keys, webhooks, named transforms. */
export function createAdminClient(options: AdminClientOptions): TroveAdminClient {
  return adminClient(options, requestNotSent);
}
