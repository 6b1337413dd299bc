import { TroveError } from "../errors.js";
import { readSuccess } from "../request/api-call.js";
import { REDIRECT_REFUSED } from "../request/error-from-response.js";
import type { ApiCall, ApiResponse, RequestSettings } from "../request/index.js";
import { retryRequestOf, sendAttempt, withRetry } from "../request/index.js";
import { isRedirectRefusal } from "../request/redirect-refusal.js";

/**
 * A request body sent as a stream of known length and read from its source again for each
 * attempt (Node's direct upload). It is never held whole: no engine gets a Request or FormData
 * it could clone for a retry or a redirect.
 */
export interface StreamedBody {
  /** `content-type` (with the boundary) and `content-length`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The whole body from its first byte: a new read of the source on every call. */
  open(): ReadableStream<Uint8Array>;
}

/**
 * One call whose body is a StreamedBody, beside both engines (ky clones its Request for retries,
 * which tees the body and keeps every byte sent in the unread branch), with their retry rule and
 * errors. `redirect: "error"` with no window is the only mode in which fetch does not clone the
 * request (to follow a redirect) and so tee the body the same way; the key still never follows a
 * redirect: a 3xx is REDIRECT_REFUSED, as with the engines' `redirect: "manual"`.
 */
export function sendStreamed(
  body: StreamedBody,
  settings: RequestSettings,
  call: ApiCall,
  url: string,
  headers: Record<string, string>,
): Promise<ApiResponse> {
  const init = (signal: AbortSignal): RequestInit & { duplex: "half" } => ({
    method: call.method,
    headers: { ...settings.headers, ...headers, ...body.headers },
    body: body.open(),
    duplex: "half",
    redirect: "error",
    window: null,
    signal,
  });
  return withRetry(
    () =>
      sendAttempt(
        settings,
        call.signal,
        call.timeout ?? settings.timeout,
        (signal) => settings.fetch(url, init(signal)).catch(failureOf),
        readSuccess,
      ),
    retryRequestOf(call.method),
    settings.retry,
    call.signal,
  );
}

/** A redirect refused (no status: fetch refused it without handing over its answer), else as fetch threw it. */
function failureOf(error: unknown): never {
  throw isRedirectRefusal(error)
    ? new TroveError(REDIRECT_REFUSED, { code: "REDIRECT_REFUSED", status: undefined })
    : error;
}
