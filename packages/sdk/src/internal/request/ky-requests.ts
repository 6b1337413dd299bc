import ky, { type HTTPError, TimeoutError as KyTimeoutError, type RetryOptions } from "ky";
import type { TroveError } from "../errors.js";
import type { ApiRequests, RequestSettings } from "./api-call.js";
import { readSuccess } from "./api-call.js";
import { errorFromFailure } from "./error-from-failure.js";
import { errorFromResponse } from "./error-from-response.js";
import { type RetryPolicy, type RetryRequest, retryDelay, retryRequestOf } from "./retry-policy.js";

export interface KyRequestsOptions {
  /**
   * A new `x-request-id` for each call, kept across its retries so the server's log shows them
   * together; the server adopts it. Left out in browsers: the API's CORS does not allow the header.
   */
  newRequestId?: (() => string) | undefined;
  /**
   * How the key travels: `x-api-key` (workspace keys and upload tokens; the default) or
   * `Authorization: Bearer` (the admin client: the server refuses its token in x-api-key).
   */
  keyHeader?: KeyHeader | undefined;
}

export type KeyHeader = "x-api-key" | "bearer";

/** What the hooks read of a call, through ky's `context` option. */
interface CallContext {
  key: string;
  requestId: string | undefined;
}

/**
 * The API client's engine (createClient, createAdminClient): ky, with its own features doing the
 * work.
 * - `prefixUrl` is the client's baseUrl; `timeout` applies to each attempt (ky starts a new timer
 *   per attempt).
 * - hooks: `beforeRequest` puts the key (in the header `keyHeader` names) and the request id on
 *   every attempt; `beforeError` turns an HTTP failure into its TroveError from the envelope
 *   (error-from-response.ts, shared with the upload-only client), which is what ky's retry and
 *   the caller then see.
 * - `retry` is driven by retry-policy.ts alone (kyRetry below): which failures are sent again,
 *   how often, and the wait, the server's (`retryAfterSeconds`, `Retry-After`) or the backoff.
 * - `redirect: "manual"`: the key never follows a redirect; a 3xx is REDIRECT_REFUSED.
 */
export function kyRequests(settings: RequestSettings, options: KyRequestsOptions = {}): ApiRequests {
  const bearer = options.keyHeader === "bearer";
  const http = ky.create({
    prefixUrl: settings.baseUrl,
    headers: settings.headers,
    fetch: settings.fetch,
    redirect: "manual",
    timeout: kyTimeout(settings.timeout),
    hooks: {
      beforeRequest: [
        (request, { context }) => {
          const call = context as unknown as CallContext;
          if (bearer) request.headers.set("authorization", `Bearer ${call.key}`);
          else request.headers.set("x-api-key", call.key);
          if (call.requestId) request.headers.set("x-request-id", call.requestId);
        },
      ],
      // ky rethrows what this returns: a TroveError, which shouldRetry reads as it is.
      beforeError: [async (error) => (await errorFromResponse(error.response)) as unknown as HTTPError],
    },
  });

  return async (call, key) => {
    const timeout = call.timeout ?? settings.timeout;
    const asTroveError = (error: unknown): TroveError =>
      errorFromFailure(settings, error, call.signal, error instanceof KyTimeoutError, timeout);
    const context: CallContext = { key, requestId: options.newRequestId?.() };
    try {
      const response = await http(call.path.replace(/^\//, ""), {
        method: call.method,
        searchParams: call.query,
        json: call.json,
        body: call.form,
        signal: call.signal,
        timeout: kyTimeout(timeout),
        context: { ...context },
        retry: kyRetry(settings.retry, retryRequestOf(call.method), asTroveError),
      });
      return await readSuccess(response);
    } catch (error) {
      throw asTroveError(error);
    }
  };
}

/**
 * ky's retry options for one call, with retryDelay (retry-policy.ts) as the only judge: ky asks
 * `shouldRetry` about every failure (every method reaches it; a non-2xx arrives as its TroveError),
 * and right after a yes reads the wait from `delay`, which hands back what retryDelay answered.
 * Nothing of ky's own retry rules applies: no status list, no jitter, no backoff of its own
 * (`limit` is maxRetries, which retryDelay enforces as well).
 */
function kyRetry(
  policy: RetryPolicy,
  request: RetryRequest,
  asTroveError: (error: unknown) => TroveError,
): RetryOptions {
  let wait = 0;
  return {
    limit: policy.maxRetries,
    methods: ["get", "put", "patch", "delete", "post"],
    shouldRetry: ({ error, retryCount }) => {
      const delay = retryDelay(asTroveError(error), retryCount, request, policy);
      wait = delay ?? 0;
      return delay !== undefined;
    },
    delay: () => wait,
  };
}

/** ky's timeout: a number of ms up to its maximum, or false for none. */
function kyTimeout(timeout: number): number | false {
  return timeout > 0 && timeout <= 2_147_483_647 ? timeout : false;
}
