import type { ErrorCode } from "@trove/schema";

/** The `errorCode` values a remote fetch can fail with; each is one of `@trove/schema`'s ERROR_CODES. */
export type RemoteFetchErrorCode = Extract<
  ErrorCode,
  "REMOTE_URL_FORBIDDEN" | "REMOTE_FETCH_FAILED" | "FILE_TOO_LARGE"
>;

/**
 * HTTP status the API answers with (upload error shape `{ error, success, errorCode, message }`):
 * 400 when retrying the same request cannot help (forbidden or invalid URL, too many redirects,
 * upstream 4xx, too large), 502 when the upstream failed in a way that may pass (network error,
 * timeout, upstream 5xx). The spec lists that shape for 400 and 500-type statuses only.
 */
export type RemoteFetchErrorStatus = 400 | 502;

export interface RemoteFetchErrorOptions {
  /** Internal detail for logs (resolved address, upstream error); never meant for API clients. */
  detail?: string;
  /** Final upstream status when the failure is an upstream HTTP answer. */
  upstreamStatus?: number;
  cause?: unknown;
}

/** The one error type of `src/network`: `code` and `status` map straight onto the API envelope. */
export class RemoteFetchError extends Error {
  override name = "RemoteFetchError";
  readonly detail: string | undefined;
  readonly upstreamStatus: number | undefined;

  constructor(
    readonly code: RemoteFetchErrorCode,
    readonly status: RemoteFetchErrorStatus,
    message: string,
    options: RemoteFetchErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.detail = options.detail;
    this.upstreamStatus = options.upstreamStatus;
  }
}

export function isRemoteFetchError(error: unknown): error is RemoteFetchError {
  return error instanceof RemoteFetchError;
}

/** How an operator lets a private range through the guard (the setting: src/network/trusted-ranges.ts). */
export const TRUSTED_RANGES_HINT =
  "set TROVE_TRUSTED_RANGES on the server to allow its range (e.g. 127.0.0.0/8)";

/**
 * "remote_url resolves to a private or loopback address; ...": the guard's refusal, for every
 * refused hop. It names its fix, the setting that trusts a range (a local webhook receiver or
 * MinIO is a loopback or private address the operator means to reach).
 */
export function forbiddenAddressError(label: string, detail: string): RemoteFetchError {
  return new RemoteFetchError(
    "REMOTE_URL_FORBIDDEN",
    400,
    `${label} resolves to a private or loopback address; ${TRUSTED_RANGES_HINT}`,
    { detail },
  );
}
