import { attemptSignal } from "../attempt-signal.js";
import type { ClientContext } from "../client-context.js";
import { errorFromFailure } from "../error-from-failure.js";
import { errorFromResponse } from "../error-from-response.js";
import { withRetry } from "../with-retry.js";
import { canUseXhr, xhrSend } from "../xhr-transport.js";

export type PartBody = Blob | Uint8Array<ArrayBuffer>;

export interface SendPartOptions {
  signal?: AbortSignal | undefined;
  /** Bytes of this part sent so far in the current attempt (byte-level only through XHR). */
  onSent?: ((loaded: number) => void) | undefined;
}

/**
 * PUTs one part to its presigned URL, retried on its own (PUT is idempotent). It goes through
 * plain fetch, not the API client: storage must not see the API key or the caller's API
 * headers, and ky would clone (tee) every part body to keep a copy for its own retries.
 */
export function sendPart(
  ctx: ClientContext,
  url: string,
  body: PartBody,
  options: SendPartOptions = {},
): Promise<void> {
  return withRetry(
    () => attempt(ctx, url, body, options),
    { idempotent: true, replayable: true },
    ctx.retry,
    options.signal,
  );
}

async function attempt(
  ctx: ClientContext,
  url: string,
  body: PartBody,
  options: SendPartOptions,
): Promise<void> {
  const { onSent, signal } = options;
  const state = attemptSignal(signal, ctx.uploadTimeout);
  const headers = { "content-type": "application/octet-stream" };
  try {
    onSent?.(0);
    const response =
      onSent && canUseXhr()
        ? await xhrSend({ method: "PUT", url, headers, body, signal: state.signal, onUploadProgress: onSent })
        : await ctx.fetch(url, { method: "PUT", headers, body, signal: state.signal });
    if (!response.ok) throw await errorFromResponse(response);
    // Nothing in the answer is needed (the gateway records each part), but reading the small body
    // returns the connection to the pool; awaiting cancel() instead can hang on a teed body.
    await response.arrayBuffer();
  } catch (error) {
    throw errorFromFailure(error, { outer: signal, timedOut: state.timedOut(), timeout: ctx.uploadTimeout });
  } finally {
    state.dispose();
  }
}
