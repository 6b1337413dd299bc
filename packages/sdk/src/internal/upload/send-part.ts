import type { ClientContext } from "../client/client-context.js";
import { retryRequestOf, sendAttempt, sendWithProgress, withRetry } from "../request/index.js";
import type { PartBody } from "./part.js";

export interface SendPartOptions {
  signal?: AbortSignal | undefined;
  /** Bytes of this part sent so far in the current attempt (byte-level only through XHR). */
  onSent?: ((loaded: number) => void) | undefined;
}

/**
 * PUTs one part to its presigned URL, retried on its own (PUT is idempotent). It goes through
 * plain fetch (or XMLHttpRequest for progress), not the API client: storage must not see the API
 * key or the caller's API headers, and ky would clone (tee) every part body to keep a copy for
 * its own retries. With nothing secret in its headers it may follow a redirect (S3 answers 307
 * for a bucket in another region): the target learns only what the Location told it.
 */
export function sendPart(
  ctx: ClientContext,
  url: string,
  body: PartBody,
  options: SendPartOptions = {},
): Promise<void> {
  return withRetry(() => attempt(ctx, url, body, options), retryRequestOf("PUT"), ctx.retry, options.signal);
}

function attempt(ctx: ClientContext, url: string, body: PartBody, options: SendPartOptions): Promise<void> {
  const { onSent, signal } = options;
  const headers = { "content-type": "application/octet-stream" };
  return sendAttempt(
    ctx,
    signal,
    ctx.uploadTimeout,
    (attemptSignal) => {
      onSent?.(0);
      const request = { method: "PUT", headers, body, signal: attemptSignal };
      return sendWithProgress({ ...request, url, onUploadProgress: onSent }, () => ctx.fetch(url, request));
    },
    // Nothing in the answer is needed (the gateway records each part), but reading the small body
    // returns the connection to the pool; awaiting cancel() instead can hang on a teed body.
    async (response) => {
      await response.text();
    },
  );
}
