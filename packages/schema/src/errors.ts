import * as z from "zod";
import { ERROR_CODES } from "./error-codes.js";

/**
 * Error envelopes, exactly as the spec's Errors section lists them. Which shape an endpoint
 * answers with depends on its group and the status; see `errorShapeFor` in ./error-shapes.ts.
 */

export const errorCodeSchema = z.enum(ERROR_CODES);

/** `{ error }`: source create 400/409; 404 on file, folder and source lookups. */
export const errorOnlySchema = z.object({ error: z.string() });

/** `{ error, message }`: 401/403/429 on sources and uploads; 400 "Validation failed". */
export const errorMessageSchema = z.object({ error: z.string(), message: z.string() });

/** `{ success: false, error, message }`: 401 on upload, file, folder and multipart endpoints. */
export const failureWithMessageSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  message: z.string(),
});

/** `{ success: false, error }`: 400 on multipart and folder creation. */
export const failureSchema = z.object({ success: z.literal(false), error: z.string() });

/** `{ error, success, errorCode, message }`: 400, 401, 403 and 5xx of upload and remote upload. */
export const uploadErrorSchema = z.object({
  error: z.string(),
  success: z.literal(false),
  errorCode: z.string(),
  message: z.string(),
});

/** `{ error, errorCode, message }`: every admin API error but 429. */
export const adminErrorSchema = z.object({ error: z.string(), errorCode: z.string(), message: z.string() });

/** `{ error, message, retryAfterSeconds }`: 429 everywhere. */
export const rateLimitErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  retryAfterSeconds: z.number().int().min(0),
});

/** `{ error, code }`: rename of a missing file. */
export const fileNotFoundCodeSchema = z.object({ error: z.string(), code: z.literal("FILE_NOT_FOUND") });

/** Every envelope above: what a client may receive on any error. */
export const errorEnvelopeSchema = z.union([
  rateLimitErrorSchema,
  uploadErrorSchema,
  adminErrorSchema,
  fileNotFoundCodeSchema,
  failureWithMessageSchema,
  failureSchema,
  errorMessageSchema,
  errorOnlySchema,
]);
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
export type UploadErrorBody = z.infer<typeof uploadErrorSchema>;
export type RateLimitErrorBody = z.infer<typeof rateLimitErrorSchema>;
