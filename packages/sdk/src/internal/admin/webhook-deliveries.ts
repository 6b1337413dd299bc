import { callEndpoint, type EndpointResponse } from "../call-endpoint.js";
import type { ApiClient } from "../request/index.js";
import type { RequestOptions } from "../resources/files.js";

export type WebhookDelivery = EndpointResponse<"adminRedeliverWebhook">;

export interface ListWebhookDeliveriesOptions extends RequestOptions {
  /** 1 to 100 (the server's default is 50). */
  limit?: number;
  /** Only the deliveries to this endpoint. */
  endpointId?: string;
}

export interface AdminWebhookDeliveriesResource {
  /**
   * A workspace's recent deliveries, newest first, with the receiver's last HTTP status. Finished
   * deliveries are kept for the server's job retention (TROVE_JOB_RETENTION_HOURS) only.
   */
  list(workspaceNo: string, options?: ListWebhookDeliveriesOptions): Promise<WebhookDelivery[]>;
  /**
   * Sends a delivery again: a new delivery with the same body and the same `webhook-id`, so a
   * receiver that drops repeats still can. NotFoundError for an unknown (or expired) delivery.
   */
  redeliver(workspaceNo: string, deliveryId: string, options?: RequestOptions): Promise<WebhookDelivery>;
}

export function adminWebhookDeliveriesResource(client: ApiClient): AdminWebhookDeliveriesResource {
  return {
    list: (workspaceNo, options = {}) =>
      callEndpoint(client, "adminListWebhookDeliveries", {
        params: { workspaceNo },
        query: {
          ...(options.limit === undefined ? {} : { limit: options.limit }),
          ...(options.endpointId === undefined ? {} : { endpoint_id: options.endpointId }),
        },
        signal: options.signal,
      }),
    redeliver: (workspaceNo, deliveryId, options = {}) =>
      callEndpoint(client, "adminRedeliverWebhook", {
        params: { workspaceNo, deliveryId },
        signal: options.signal,
      }),
  };
}
