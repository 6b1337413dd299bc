/**
 * Trove's own: trying a source's origin with its stored credentials (`POST
 * /api/v1/sources/:sourceId/test`, endpoint 25), through the guarded fetch that deliveries use
 * (the SSRF guard applies, with the same timeouts).
 */
import * as z from "zod";

export const sourceTestResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    /** The origin answered and accepted the credentials. */
    ok: z.boolean(),
    /** The origin's HTTP status; null when it answered nothing (refused URL, network error, timeout). */
    status: z.number().int().nullable(),
    /** Why it failed, as text (never a credential); null when ok. */
    message: z.string().nullable(),
    /** How long the try took, in milliseconds. */
    elapsed_ms: z.number().int(),
  }),
});
export type SourceTestResult = z.infer<typeof sourceTestResponseSchema>["data"];
