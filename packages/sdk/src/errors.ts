import type { ErrorCode } from "@trove/schema";

/**
 * Codes the SDK derives itself, for failures whose body carries no `errorCode`/`code` (or that
 * have no body at all). They use the same UPPER_SNAKE spelling as the server's `ERROR_CODES`
 * (and reuse its names where one fits: a 429 is `RATE_LIMITED` whichever envelope carried it),
 * so one `switch (error.code)` covers both.
 */
export const SDK_ERROR_CODES = [
  "BAD_REQUEST",
  "NOT_FOUND",
  "CONFLICT",
  "REQUEST_TIMEOUT",
  "SERVER_ERROR",
  "HTTP_ERROR",
  "INVALID_RESPONSE",
  "CONNECTION_ERROR",
  "TIMEOUT",
  "ABORTED",
  "SESSION_EXPIRED",
  "INVALID_ARGUMENT",
  "PRIVATE_KEY_IN_BROWSER",
] as const;
export type SdkErrorCode = (typeof SDK_ERROR_CODES)[number];

/** A server code from `@trove/schema`, one the SDK derives, or any other code a server sent. */
export type TroveErrorCode = ErrorCode | SdkErrorCode | (string & {});

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
 */
export class TroveError extends Error {
  override name = "TroveError";
  readonly code: TroveErrorCode;
  readonly status: number | undefined;
  /** How long the server asked to wait (body `retryAfterSeconds`, else the `Retry-After` header). */
  readonly retryAfterSeconds: number | undefined;
  readonly requestId: string | undefined;
  /** The raw body: parsed JSON when it was JSON, else the text ("" when empty). */
  readonly body: unknown;

  constructor(message: string, init: TroveErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.requestId = init.requestId;
    this.body = init.body;
  }
}

/** 401: missing, invalid, inactive or deleted API key. */
export class AuthenticationError extends TroveError {
  override name = "AuthenticationError";
}

/** 403: for example a public key on an endpoint that needs a private key. */
export class PermissionDeniedError extends TroveError {
  override name = "PermissionDeniedError";
}

/** 404: unknown file, folder or source. */
export class NotFoundError extends TroveError {
  override name = "NotFoundError";
}

/** 409: a name already used, or a folder that still has files. */
export class ConflictError extends TroveError {
  override name = "ConflictError";
}

/** 400, 413, 415, 422: the request was refused as it stands; sending it again will not help. */
export class ValidationError extends TroveError {
  override name = "ValidationError";
}

/** 429: wait `retryAfterSeconds` before trying again. */
export class RateLimitError extends TroveError {
  override name = "RateLimitError";
}

/** 5xx. */
export class ServerError extends TroveError {
  override name = "ServerError";
}

/** A 2xx whose body is not what the API documents (or not JSON at all). */
export class InvalidResponseError extends TroveError {
  override name = "InvalidResponseError";
}

/** The request never got a response: DNS, refused or reset connection, CORS, offline. */
export class ConnectionError extends TroveError {
  override name = "ConnectionError";
  /**
   * True when the failure proves the request never reached the server (connection refused, host
   * not found), so even a non-idempotent POST can be sent again.
   */
  readonly requestNotSent: boolean;

  constructor(message: string, init: TroveErrorInit & { requestNotSent: boolean }) {
    super(message, init);
    this.requestNotSent = init.requestNotSent;
  }
}

/** The client's `timeout` (or `uploadTimeout`) elapsed, or the server answered 408. */
export class TimeoutError extends TroveError {
  override name = "TimeoutError";
}

/** The caller's signal (or `task.abort()`) stopped the operation. */
export class AbortError extends TroveError {
  override name = "AbortError";
}

/**
 * The multipart session's presigned part URLs expired before every part was sent. Its parts cannot
 * be reused: call `upload()` again to start a new session (a stored session is discarded).
 */
export class SessionExpiredError extends TroveError {
  override name = "SessionExpiredError";
}
