/**
 * Admin API, webhook deliveries (endpoints 117-118): a workspace's recent deliveries and sending
 * one again. A delivery is a row of the server's job queue; finished ones are deleted after the
 * job retention (TROVE_JOB_RETENTION_HOURS, a week by default), so the list covers what that keeps.
 */
import * as z from "zod";
import { workspaceNoParamsSchema } from "./admin.js";
import { timestampSchema, uuidSchema } from "./common.js";

export const webhookDeliverySchema = z.object({
  id: uuidSchema,
  /** The event's type (`file.uploaded`, `file.deleted`, ...). */
  event_type: z.string(),
  /** The registered endpoint it goes to; null for an upload's one-off `webhook_url`. */
  endpoint_id: uuidSchema.nullable(),
  url: z.string(),
  /** `running` while an attempt is being sent; `pending` also covers a retry that is waiting. */
  status: z.enum(["pending", "running", "succeeded", "failed"]),
  /** Attempts started so far. */
  attempts: z.number().int(),
  /** Attempts before it fails for good. */
  max_attempts: z.number().int(),
  /** The receiver's HTTP status on the last attempt; null: no answer (network error, timeout) or not tried yet. */
  response_status: z.number().int().nullable(),
  /** Why the last attempt failed, as text; null after a success or before any attempt. */
  last_error: z.string().nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const listWebhookDeliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  /** Only the deliveries to this endpoint. */
  endpoint_id: uuidSchema.optional(),
});

/** Newest first. A bare array, as agreed with the console (the other admin lists wrap theirs). */
export const listWebhookDeliveriesResponseSchema = z.array(webhookDeliverySchema);

export const webhookDeliveryParamsSchema = workspaceNoParamsSchema.extend({ deliveryId: uuidSchema });
