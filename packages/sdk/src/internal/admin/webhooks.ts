import { callEndpoint, type EndpointBody, type EndpointResponse } from "../call-endpoint.js";
import type { ApiClient } from "../request/index.js";
import type { RequestOptions } from "../resources/files.js";

export type WebhookSecret = EndpointResponse<"adminGetWebhookSecret">;
export type WebhookEndpoint = EndpointResponse<"adminCreateWebhookEndpoint">;
export type AddWebhookEndpointBody = EndpointBody<"adminCreateWebhookEndpoint">;

export interface RotateWebhookSecretOptions extends RequestOptions {
  /**
   * How long the replaced secret keeps signing deliveries beside the new one, in seconds (0 to a
   * year; the server's default is a day), so receivers can switch without missing one.
   */
  graceSeconds?: number;
}

export interface AdminWebhookEndpointsResource {
  /** Events default to `["*"]` (all). */
  add(workspaceNo: string, body: AddWebhookEndpointBody, options?: RequestOptions): Promise<WebhookEndpoint>;
  list(workspaceNo: string, options?: RequestOptions): Promise<WebhookEndpoint[]>;
  remove(workspaceNo: string, endpointId: string, options?: RequestOptions): Promise<void>;
}

export interface AdminWebhooksResource {
  /** The secret that signs the workspace's webhook deliveries. */
  secret(workspaceNo: string, options?: RequestOptions): Promise<WebhookSecret>;
  /** A new secret; `previous_expires_at` says when the old one stops signing. */
  rotateSecret(workspaceNo: string, options?: RotateWebhookSecretOptions): Promise<WebhookSecret>;
  endpoints: AdminWebhookEndpointsResource;
}

export function adminWebhooksResource(client: ApiClient): AdminWebhooksResource {
  return {
    secret: (workspaceNo, options = {}) =>
      callEndpoint(client, "adminGetWebhookSecret", { params: { workspaceNo }, signal: options.signal }),
    rotateSecret: (workspaceNo, options = {}) =>
      callEndpoint(client, "adminRotateWebhookSecret", {
        params: { workspaceNo },
        json: options.graceSeconds === undefined ? {} : { grace_seconds: options.graceSeconds },
        signal: options.signal,
      }),
    endpoints: {
      add: (workspaceNo, body, options = {}) =>
        callEndpoint(client, "adminCreateWebhookEndpoint", {
          params: { workspaceNo },
          json: body,
          signal: options.signal,
        }),
      list: async (workspaceNo, options = {}) =>
        (
          await callEndpoint(client, "adminListWebhookEndpoints", {
            params: { workspaceNo },
            signal: options.signal,
          })
        ).endpoints,
      remove: async (workspaceNo, endpointId, options = {}) => {
        await callEndpoint(client, "adminDeleteWebhookEndpoint", {
          params: { workspaceNo, endpointId },
          signal: options.signal,
        });
      },
    },
  };
}
