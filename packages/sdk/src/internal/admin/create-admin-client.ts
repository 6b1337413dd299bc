import { isBrowserLike } from "../client/assert-key-allowed.js";
import { buildContext } from "../client/build-context.js";
import type { ClientOptions } from "../client/client-options.js";
import { requestIdMaker, zodUploadSchemas } from "../client/create-client.js";
import { invalidArgument } from "../invalid-argument.js";
import { kyRequests } from "../request/index.js";
import { resolveWebInput } from "../upload/upload-input.js";
import { type AdminKeysResource, adminKeysResource } from "./keys.js";
import { type AdminTransformsResource, adminTransformsResource } from "./transforms.js";
import { type AdminWebhookDeliveriesResource, adminWebhookDeliveriesResource } from "./webhook-deliveries.js";
import { type AdminWebhooksResource, adminWebhooksResource } from "./webhooks.js";
import { type AdminWorkspacesResource, adminWorkspacesResource } from "./workspaces.js";

/** Where to send and how long and how often to try, as for createClient. */
type RequestSettingOptions = Pick<
  ClientOptions,
  "baseUrl" | "fetch" | "timeout" | "maxRetries" | "maxRetryDelay" | "headers"
>;

export interface AdminClientOptions extends RequestSettingOptions {
  /**
   * The server's TROVE_ADMIN_TOKEN. Sent as `Authorization: Bearer`, never as `x-api-key`: it is
   * not a workspace key, and it can create keys for every workspace, so it stays on servers.
   */
  adminToken: string;
}

/** The admin API (`/admin/v1`): what the `trove-server` commands manage, over HTTP. */
export interface TroveAdminClient {
  workspaces: AdminWorkspacesResource;
  /** A workspace's API keys. */
  keys: AdminKeysResource;
  /** A workspace's webhook signing secret and endpoints. */
  webhooks: AdminWebhooksResource;
  /** A workspace's recent webhook deliveries, and sending one again. */
  webhookDeliveries: AdminWebhookDeliveriesResource;
  /** A workspace's named transforms (`t_<name>` in delivery URLs). */
  transforms: AdminTransformsResource;
}

/**
 * Where a browser-like runtime may build the client: `never` (the Node entry), or `with-fetch`
 * (the `@trove/sdk/admin` entry): only with the page's own `fetch`, which authenticates another
 * way (the console's session cookie) and drops the Authorization header, so the token passed is
 * a placeholder and no real token is in the page.
 */
export type AdminClientInBrowser = "never" | "with-fetch";

/**
 * A client of the admin API: the same engine as createClient (ky, retries on 429 and, for
 * idempotent methods, 5xx and lost connections; redirects refused; responses checked with the
 * schema), sending the admin token as a bearer token. A server without an admin token answers
 * every call with NotFoundError (the admin API is off). In browser-like runtimes it is refused
 * unless `inBrowser` is `with-fetch` and a `fetch` is given: a page would hand a real token to
 * anyone who opens it.
 */
export function createAdminClient(
  options: AdminClientOptions,
  requestNotSent?: (error: unknown) => boolean,
  inBrowser: AdminClientInBrowser = "never",
): TroveAdminClient {
  const token = options.adminToken;
  if (typeof token !== "string" || token.trim() === "") throw invalidArgument("adminToken is required");
  if (isBrowserLike() && !(inBrowser === "with-fetch" && typeof options.fetch === "function")) {
    throw invalidArgument(
      inBrowser === "with-fetch"
        ? "createAdminClient in a page needs a fetch that authenticates with a session and drops the placeholder token: the admin token must never reach a page"
        : "createAdminClient is for server code: the admin token must never reach a page",
    );
  }
  // createClient's context, so both clients check baseUrl and fix defaults the same way; the
  // upload parts are never used (no admin operation uploads), and the token is sent as a bearer.
  const client = buildContext(
    { ...options, apiKey: token },
    {
      requests: (settings) => kyRequests(settings, { newRequestId: requestIdMaker(), keyHeader: "bearer" }),
      schemas: zodUploadSchemas,
      resolveInput: resolveWebInput,
      requestNotSent,
    },
  );
  return {
    workspaces: adminWorkspacesResource(client),
    keys: adminKeysResource(client),
    webhooks: adminWebhooksResource(client),
    webhookDeliveries: adminWebhookDeliveriesResource(client),
    transforms: adminTransformsResource(client),
  };
}
