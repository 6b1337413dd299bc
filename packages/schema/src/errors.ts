import * as z from "zod";

/**
 * Error envelopes, exactly as the spec's Errors section lists them. Which shape an endpoint
 * answers with depends on its group and the status; see `ERROR_SHAPES` in ./error-shapes.ts.
 */

/** Machine-readable `errorCode` values (upload group) and `code` (rename). Server and SDK share them. */
/** Refusals of an upload policy (upload tokens, and public keys that carry one). */
export const UPLOAD_POLICY_ERROR_CODES = [
  "FILE_TOO_LARGE",
  "TYPE_NOT_ALLOWED",
  "FOLDER_NOT_ALLOWED",
  "REMOTE_NOT_ALLOWED",
  "MULTIPART_NOT_ALLOWED",
  "TOKEN_EXPIRED",
  "TOKEN_EXHAUSTED",
] as const;

export const ERROR_CODES = [
  "UNAUTHORIZED",
  "FORBIDDEN",
  "VALIDATION_FAILED",
  "INVALID_TRANSFORM",
  "INVALID_METADATA",
  "UNSUPPORTED_MEDIA_TYPE",
  "FILE_TOO_LARGE",
  "IMAGE_TOO_LARGE",
  "REMOTE_URL_FORBIDDEN",
  "REMOTE_FETCH_FAILED",
  "RATE_LIMITED",
  "FILE_NOT_FOUND",
  "INTERNAL_ERROR",
  // The server's defaults for statuses no rule names (404, 409, 503).
  "NOT_FOUND",
  "CONFLICT",
  "SERVICE_UNAVAILABLE",
  // FILE_TOO_LARGE is listed above.
  ...UPLOAD_POLICY_ERROR_CODES.filter((code) => code !== "FILE_TOO_LARGE"),
] as const;
export const errorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

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
  fileNotFoundCodeSchema,
  failureWithMessageSchema,
  failureSchema,
  errorMessageSchema,
  errorOnlySchema,
]);
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
export type UploadErrorBody = z.infer<typeof uploadErrorSchema>;
export type RateLimitErrorBody = z.infer<typeof rateLimitErrorSchema>;
