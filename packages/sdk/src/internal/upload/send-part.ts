import type { ClientContext } from "../client/client-context.js";
import { sendAttempt, sendWithProgress, withRetry } from "../request/index.js";

/** A part read from its source when sent: `open()` gives a fresh stream for every attempt. */
export interface RangeBody {
  size: number;
  open(): ReadableStream<Uint8Array>;
}

export type PartBody = Blob | Uint8Array<ArrayBuffer> | RangeBody;

function isRangeBody(body: PartBody): body is RangeBody {
  return typeof (body as Partial<RangeBody>).open === "function";
}

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
  return withRetry(
    () => attempt(ctx, url, body, options),
    { idempotent: true, replayable: true },
    ctx.retry,
    options.signal,
  );
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
      if (isRangeBody(body)) {
        // A stream body needs `duplex: "half"` (Node's fetch); the length is known, so the part
        // goes out with Content-Length rather than chunked.
        const streamed = {
          method: "PUT",
          headers: { ...headers, "content-length": String(body.size) },
          body: body.open(),
          duplex: "half",
          signal: attemptSignal,
        } as RequestInit;
        return ctx.fetch(url, streamed);
      }
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
