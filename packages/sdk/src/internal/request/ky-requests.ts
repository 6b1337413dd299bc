import ky, { type HTTPError, TimeoutError as KyTimeoutError, type RetryOptions } from "ky";
import type { TroveError } from "../errors.js";
import type { ApiRequests, RequestSettings } from "./api-call.js";
import { readSuccess } from "./api-call.js";
import { errorFromResponse } from "./error-from-response.js";
import { isRetryable, serverWait } from "./retry-policy.js";
import { errorFromFailure } from "./send-attempt.js";

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
  idempotent: boolean;
}

/**
 * The full client's engine: ky, with its own features doing the work.
 * - `prefixUrl` is the client's baseUrl; `timeout` applies to each attempt (ky starts a new timer
 *   per attempt).
 * - hooks: `beforeRequest` puts the key (in the header `keyHeader` names) and the request id on
 *   every attempt, `afterResponse`
 *   retries after the wait the server asked for (`retryAfterSeconds` in the body, or
 *   `Retry-After`: `ky.retry({ delay })`), `beforeError` turns an HTTP failure into its TroveError
 *   (error-from-response.ts, shared with the upload-only client).
 * - `retry`: `shouldRetry` applies the SDK's one rule (retry-policy.ts: idempotent methods, 408,
 *   429, refused connections), the delay is ky's exponential backoff with full jitter, capped at
 *   maxRetryDelay.
 * - `redirect: "manual"`: the key never follows a redirect; a 3xx is REDIRECT_REFUSED.
 */
export function kyRequests(settings: RequestSettings, options: KyRequestsOptions = {}): ApiRequests {
  const policy = settings.retry;
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
      afterResponse: [
        async (_request, { context, retry }, response, { retryCount }) => {
          if (response.ok || retryCount >= (retry.limit ?? 0)) return;
          // `response` is ky's copy for this hook: reading it leaves the body for beforeError.
          const error = await errorFromResponse(response);
          const wait = serverWait(error, policy);
          if (wait !== undefined && isRetryable(error, (context as unknown as CallContext).idempotent)) {
            return ky.retry({ delay: wait, cause: error });
          }
        },
      ],
      // ky rethrows what this returns: a TroveError, which shouldRetry below reads as it is.
      beforeError: [async (error) => (await errorFromResponse(error.response)) as unknown as HTTPError],
    },
  });

  return async (call, key) => {
    const idempotent = call.method !== "POST";
    const timeout = call.timeout ?? settings.timeout;
    const asTroveError = (error: unknown): TroveError =>
      errorFromFailure(settings, error, call.signal, error instanceof KyTimeoutError, timeout);
    const context: CallContext = { key, requestId: options.newRequestId?.(), idempotent };
    try {
      const response = await http(call.path.replace(/^\//, ""), {
        method: call.method,
        searchParams: call.query,
        json: call.json,
        body: call.form,
        signal: call.signal,
        timeout: kyTimeout(timeout),
        context: { ...context },
        retry: retryOptions(policy.maxRetries, policy.baseDelay, policy.maxRetryDelay, (error) =>
          isRetryable(asTroveError(error), idempotent),
        ),
      });
      return await readSuccess(response);
    } catch (error) {
      throw asTroveError(error);
    }
  };
}

function retryOptions(
  limit: number,
  baseDelay: number,
  maxRetryDelay: number,
  shouldRetry: (error: unknown) => boolean,
): RetryOptions {
  return {
    limit,
    // Every method reaches shouldRetry, which knows which failures a POST may be sent again after.
    methods: ["get", "put", "patch", "delete", "post"],
    shouldRetry: ({ error }) => shouldRetry(error),
    delay: (attempt) => baseDelay * 2 ** (attempt - 1),
    jitter: true,
    backoffLimit: maxRetryDelay,
  };
}

/** ky's timeout: a number of ms up to its maximum, or false for none. */
function kyTimeout(timeout: number): number | false {
  return timeout > 0 && timeout <= 2_147_483_647 ? timeout : false;
}
