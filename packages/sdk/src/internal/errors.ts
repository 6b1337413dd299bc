import type { ErrorCode } from "@trove/schema/zod-free";

/**
 * Codes the SDK derives itself, for failures that never got an answer (connection, timeout,
 * abort), that it refuses before sending, or whose 2xx body is wrong. An HTTP failure whose body
 * carries no `errorCode`/`code` gets the server's default code for its status
 * (`errorCodeForStatus` of @trove/schema's error catalogue), so one `switch (error.code)` covers
 * both; the server's codes themselves (NOT_FOUND, CONFLICT, ...) come from that catalogue and are
 * not repeated here. HTTP_ERROR names a failure that is no TroveError (a custom `fetch` or session
 * store threw): `@trove/react` wraps such errors with it.
 */
export const SDK_ERROR_CODES = [
  "HTTP_ERROR",
  "INVALID_RESPONSE",
  "CONNECTION_ERROR",
  "TIMEOUT",
  "ABORTED",
  "SESSION_EXPIRED",
  "INVALID_ARGUMENT",
  "PRIVATE_KEY_IN_BROWSER",
  "REDIRECT_REFUSED",
  "TOKEN_UNAVAILABLE",
] as const;
export type SdkErrorCode = (typeof SDK_ERROR_CODES)[number];

/**
 * A server code (`@trove/schema`'s `ErrorCode`, from its error catalogue) or one the SDK derives: a closed union, so a
 * misspelt code in a `switch` or a comparison does not compile.
 */
export type TroveErrorCode = ErrorCode | SdkErrorCode;

export interface TroveErrorInit {
  code: TroveErrorCode;
  status?: number | undefined;
  retryAfterSeconds?: number | undefined;
  requestId?: string | undefined;
  body?: unknown;
  cause?: unknown;
}

/**
 * The one error type the SDK throws. HTTP failures carry the status, the parsed body (or its text
 * when it is not JSON) and the `x-request-id`; failures without a response (connection, timeout,
 * abort) have no status.
 *
 * The fields are declared, not initialised, and the subclasses' names live on their prototypes
 * (set at the end of this file): class fields are compiled to a helper call per field and per
 * class for the browsers the upload entry supports, which cost that entry about 1 kB.
 */
export class TroveError extends Error {
  declare readonly code: TroveErrorCode;
  declare readonly status: number | undefined;
  /** How long the server asked to wait (body `retryAfterSeconds`, else the `Retry-After` header). */
  declare readonly retryAfterSeconds: number | undefined;
  declare readonly requestId: string | undefined;
  /** The raw body: parsed JSON when it was JSON, else the text ("" when empty). */
  declare readonly body: unknown;

  constructor(message: string, init: TroveErrorInit) {
    const { cause, ...fields } = init;
    super(message, cause === undefined ? undefined : { cause });
    Object.assign(this, fields);
  }
}

/** 401: missing, invalid, inactive or deleted API key. */
export class AuthenticationError extends TroveError {}

/** 403: for example a public key on an endpoint that needs a private key. */
export class PermissionDeniedError extends TroveError {}

/** 404: unknown file, folder or source. */
export class NotFoundError extends TroveError {}

/** 409: a name already used, or a folder that still has files. */
export class ConflictError extends TroveError {}

/** 400, 413, 415, 422: the request was refused as it stands; sending it again will not help. */
export class ValidationError extends TroveError {}

/** 429: wait `retryAfterSeconds` before trying again. */
export class RateLimitError extends TroveError {}

/** 5xx. */
export class ServerError extends TroveError {}

/** A 2xx whose body is not what the API documents (or not JSON at all). */
export class InvalidResponseError extends TroveError {}

/** The request never got a response: DNS, refused or reset connection, CORS, offline. */
export class ConnectionError extends TroveError {
  /**
   * True when the failure proves the request never reached the server (connection refused, host
   * not found), so even a non-idempotent POST can be sent again. Set from `init` by TroveError.
   */
  declare readonly requestNotSent: boolean;

  // Only for the type: requestNotSent is a required part of init.
  constructor(message: string, init: TroveErrorInit & { requestNotSent: boolean }) {
    super(message, init);
  }
}

/** The client's `timeout` (or `uploadTimeout`) elapsed, or the server answered 408. */
export class TimeoutError extends TroveError {}

/** The caller's signal (or `task.abort()`) stopped the operation. */
export class AbortError extends TroveError {}

/**
 * The multipart session's presigned part URLs expired before every part was sent. Its parts cannot
 * be reused: call `upload()` again to start a new session (a stored session is discarded).
 */
export class SessionExpiredError extends TroveError {}

for (const [ErrorClass, name] of [
  [TroveError, "TroveError"],
  [AuthenticationError, "AuthenticationError"],
  [PermissionDeniedError, "PermissionDeniedError"],
  [NotFoundError, "NotFoundError"],
  [ConflictError, "ConflictError"],
  [ValidationError, "ValidationError"],
  [RateLimitError, "RateLimitError"],
  [ServerError, "ServerError"],
  [InvalidResponseError, "InvalidResponseError"],
  [ConnectionError, "ConnectionError"],
  [TimeoutError, "TimeoutError"],
  [AbortError, "AbortError"],
  [SessionExpiredError, "SessionExpiredError"],
] as const) {
  ErrorClass.prototype.name = name;
}
