/**
 * `HttpError`: the one error type routes throw. The global error handler (src/plugins/errors.ts)
 * turns it into the envelope of the endpoint group for its status (`buildErrorBody` from
 * @trove/schema), so
 * a route never builds an error body itself.
 *
 *   throw new HttpError(400, "name is required");
 *     files   -> 400 { error: "Validation failed", message: "name is required" }
 *     folders (create route, config.errorVariant "folder-create") -> 400 { success: false, error: "name is required" }
 *     multipart -> 400 { success: false, error: "name is required" }
 *     upload  -> 400 { error: "Validation failed", success: false, errorCode: "VALIDATION_FAILED", message: "name is required" }
 *   throw new HttpError(400, "Configuration is invalid for the specified type");   // sources
 *   throw notFound("files");                          // 404 { error: "File not found" }
 *   throw new HttpError(404, `File ${no} not found`, { code: "FILE_NOT_FOUND" });  // { error, code }
 *   throw new HttpError(409, "Origin name already exists in this workspace");      // sources: { error }
 *   throw new HttpError(400, "Invalid transform", { errorCode: "INVALID_TRANSFORM" }); // upload errorCode
 *
 * `message` is what callers see (never put secrets or internals in it). For envelopes that carry
 * only `error` (404, 409, multipart 4xx, folder create 400) `message` becomes `error`; for
 * `{ error, message }` envelopes `title` (default by status, e.g. "Validation failed") becomes
 * `error`. 5xx bodies never carry the message; the error is logged with the request id instead.
 *
 * `errorCode` and `code` are `ErrorCode`s: every code the server sends is declared once in
 * @trove/schema's error catalogue (its status, the groups that carry it, its fixed message).
 */
import type { ErrorCode } from "@trove/schema";

export interface HttpErrorOptions {
  /** `error` of `{ error, message }` envelopes; defaults by status (`errorTitleForStatus` in @trove/schema). */
  title?: string;
  /** Adds `code` to `{ error }` envelopes (rename of a missing file: `FILE_NOT_FOUND`). */
  code?: ErrorCode;
  /** `errorCode` of upload-group envelopes; defaults by status (`errorCodeForStatus` in @trove/schema). */
  errorCode?: ErrorCode;
  /** Extra data for logs; never sent to the client. */
  details?: unknown;
  /** For 429: seconds until the client may retry (also sets `Retry-After`). */
  retryAfterSeconds?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /**
   * The message is safe to send with a 5xx: a gateway error that names the upstream and what it
   * did (a source's origin refusing credentials). Other 5xx bodies never carry their message.
   */
  expose?: boolean;
  cause?: unknown;
}

export class HttpError extends Error {
  override name = "HttpError";
  readonly status: number;
  /** Same as `status`; Fastify reads `statusCode`. */
  readonly statusCode: number;
  readonly title: string | undefined;
  readonly code: ErrorCode | undefined;
  readonly errorCode: ErrorCode | undefined;
  readonly details: unknown;
  readonly retryAfterSeconds: number | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly expose: boolean;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.statusCode = status;
    this.title = options.title;
    this.code = options.code;
    this.errorCode = options.errorCode;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.headers = options.headers;
    this.expose = options.expose ?? false;
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}
