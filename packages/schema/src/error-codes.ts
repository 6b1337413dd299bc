/**
 * Machine-readable `errorCode` values (upload group) and `code` (rename), shared by the server and
 * the SDK. Plain constants without zod, so the SDK's upload entry can type `error.code` as a closed
 * union without pulling zod into its declarations.
 */

/** Refusals of an upload policy (upload tokens, and public keys that carry one). */
export const UPLOAD_POLICY_ERROR_CODES = [
  "FILE_TOO_LARGE",
  "TYPE_NOT_ALLOWED",
  "FOLDER_NOT_ALLOWED",
  "REMOTE_NOT_ALLOWED",
  "MULTIPART_NOT_ALLOWED",
  "TRANSFORM_NOT_ALLOWED",
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
  // A 0-byte upload, on every upload path: there is nothing to store or show.
  "EMPTY_FILE",
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
  // An API key past its `expires_at` (401).
  "KEY_EXPIRED",
  // Admin API: a workspace delete refused while the workspace holds files (409).
  "WORKSPACE_NOT_EMPTY",
  // FILE_TOO_LARGE is listed above.
  ...UPLOAD_POLICY_ERROR_CODES.filter(
    (code): code is Exclude<(typeof UPLOAD_POLICY_ERROR_CODES)[number], "FILE_TOO_LARGE"> =>
      code !== "FILE_TOO_LARGE",
  ),
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
