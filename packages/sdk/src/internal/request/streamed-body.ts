import type { ApiCall, ApiResponse, RequestSettings } from "./api-call.js";
import { readSuccess } from "./api-call.js";
import { redirectRefused } from "./error-from-response.js";
import { isRedirectRefusal } from "./redirect-refusal.js";
import { retryRequestOf } from "./retry-policy.js";
import { sendAttempt } from "./send-attempt.js";
import { withRetry } from "./with-retry.js";

/**
 * A request body sent as a stream of known length and read from its source again for each
 * attempt (Node's direct upload: the multipart/form-data of a file path or Blob). It is never
 * held whole: neither engine gets a Request or FormData it could clone for a retry or a redirect.
 */
export interface StreamedBody {
  /** `content-type` (with the boundary) and `content-length`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The whole body from its first byte: a new read of the source on every call. */
  open(): ReadableStream<Uint8Array>;
  /** False when the source is a one-shot stream: the call is then never sent again. */
  readonly replayable: boolean;
}

/**
 * One call whose body is a StreamedBody, for both engines (ky's clones its Request for retries,
 * which tees the body and keeps every byte sent in the unread branch). `redirect: "error"` with
 * no window is the only mode in which fetch does not clone the request (to follow a redirect) and
 * so tee the body the same way; the key still never follows a redirect: a 3xx is
 * REDIRECT_REFUSED, as with the engines' `redirect: "manual"`.
 */
export function sendStreamed(
  settings: RequestSettings,
  call: ApiCall & { stream: StreamedBody },
  url: string,
  headers: Record<string, string>,
): Promise<ApiResponse> {
  const body = call.stream;
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
        (signal) => settings.fetch(url, init(signal)).catch(refuseRedirect),
        readSuccess,
      ),
    { ...retryRequestOf(call.method), replayable: body.replayable },
    settings.retry,
    call.signal,
  );
}

function refuseRedirect(error: unknown): never {
  throw isRedirectRefusal(error) ? redirectRefused(undefined) : error;
}
