/**
 * `GET /api/v1/usage` (private key): what a workspace stores, its quotas, and what the delivery
 * host served it per UTC day. Stored bytes are those of its originals, stored variants, video
 * outputs and cached origin copies (apps/server/README.md, "Usage and quotas").
 */
import * as z from "zod";

export const DEFAULT_USAGE_DAYS = 30;
export const MAX_USAGE_DAYS = 90;

export const usageQuerySchema = z.object({
  /** How many days back, today (UTC) included. */
  days: z.coerce.number().int().min(1).max(MAX_USAGE_DAYS).default(DEFAULT_USAGE_DAYS),
});
export type UsageQuery = z.input<typeof usageQuerySchema>;

export const usageDaySchema = z.object({
  /** UTC day, `YYYY-MM-DD`. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Delivery requests answered with the workspace's content. */
  requests: z.number().int(),
  /** Body bytes the delivery host sent. */
  bytes_served: z.number().int(),
  /** Variants rendered fresh (not served from storage). */
  renders: z.number().int(),
});
export type UsageDay = z.infer<typeof usageDaySchema>;

export const usageSchema = z.object({
  files: z.number().int(),
  storage_bytes: z.number().int(),
  /** Quotas set by the admin API; null: unlimited. */
  max_files: z.number().int().nullable(),
  max_storage_bytes: z.number().int().nullable(),
  /** One entry per day, oldest first, days without deliveries included (zeros). */
  days: z.array(usageDaySchema),
});
export type Usage = z.infer<typeof usageSchema>;

export const usageResponseSchema = z.object({ success: z.literal(true), data: usageSchema });
export type UsageResponse = z.infer<typeof usageResponseSchema>;
