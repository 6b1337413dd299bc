import { ConnectionError, RateLimitError, ServerError, TimeoutError, type TroveError } from "../errors.js";

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Longest wait before a retry, in ms; also caps a server-requested wait (`retryAfterSeconds`). */
  maxRetryDelay: number;
  /** The first backoff ceiling, in ms; it doubles with every retry. */
  baseDelay: number;
}

/** What the policy needs to know about the request that failed. */
export interface RetryRequest {
  /**
   * GET, PUT, PATCH and DELETE: sending them twice has the effect of sending them once. POST (all
   * uploads, create folder/source, multipart start/complete, folder rename) is not.
   */
  idempotent: boolean;
  /** False when the body was a one-shot stream that cannot be sent again. */
  replayable: boolean;
}

/**
 * The RetryRequest of a request by its method. Every body the SDK sends (JSON, FormData over a
 * Blob, part slices and buffers) can be sent again.
 */
export function retryRequestOf(method: string): RetryRequest {
  return { idempotent: method !== "POST", replayable: true };
}

/**
 * The one place that decides whether a failed request is sent again and after how long; both
 * engines ask it (ky's `retry.shouldRetry` in ky-requests.ts, with-retry.ts for the upload-only
 * client and every part). Returns the wait in ms before retry number `retry` (1-based), or
 * undefined to give up.
 *
 * - 429 and 408 are retried for every method: the server answered without processing the
 *   request (rate limiter; request not fully received), so even a POST cannot run twice.
 * - A connection failure that proves nothing was sent (refused, host not found) is retried for
 *   every method; any other connection failure, a client timeout and a 5xx only for idempotent
 *   methods, because the server may have processed a POST whose answer was lost.
 * - When the server says how long to wait (`retryAfterSeconds` from the body or `Retry-After`,
 *   both read into the TroveError by error-from-response.ts), that wait is used, capped at
 *   maxRetryDelay; otherwise the wait is `backoff`.
 */
export function retryDelay(
  error: TroveError,
  retry: number,
  request: RetryRequest,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (retry > policy.maxRetries || !request.replayable || !isRetryable(error, request.idempotent)) {
    return undefined;
  }
  const seconds = error.retryAfterSeconds;
  return seconds === undefined
    ? backoff(retry, policy, random)
    : Math.min(seconds * 1000, policy.maxRetryDelay);
}

/**
 * The SDK's one backoff: exponential with full jitter, uniform in [0, min(maxRetryDelay,
 * baseDelay * 2^(retry-1))) ms before retry number `retry` (1-based).
 */
function backoff(retry: number, policy: RetryPolicy, random: () => number): number {
  return Math.floor(random() * Math.min(policy.maxRetryDelay, policy.baseDelay * 2 ** (retry - 1)));
}

function isRetryable(error: TroveError, idempotent: boolean): boolean {
  if (error instanceof RateLimitError || error.status === 408) return true;
  if (error instanceof ConnectionError) return idempotent || error.requestNotSent;
  if (error instanceof TimeoutError || error instanceof ServerError) return idempotent;
  return false;
}
