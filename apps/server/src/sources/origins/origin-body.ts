/**
 * The body stream a reader hands out: the origin's bytes, passed through as they arrive, with the
 * contract's two guarantees that the origin cannot be trusted to keep. More than `maxBytes` bytes
 * destroy it with a `too_large` OriginError (an origin may send more than it announced, or
 * announce nothing); the read's `signal` aborting destroys it with a `timeout` OriginError. Any
 * other failure of the source becomes `unavailable`. Destroying it (the consumer gave up) destroys
 * the source, which frees the connection.
 */
import { type Readable, Transform } from "node:stream";
import { OriginError, originError } from "./origin-error.js";

export interface GuardBodyOptions {
  maxBytes: number;
  signal: AbortSignal;
  sourceName: string;
}

export function guardOriginBody(source: Readable, options: GuardBodyOptions): Readable {
  const { maxBytes, signal, sourceName } = options;
  let received = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > maxBytes) {
        callback(originError("too_large", sourceName, `more than ${maxBytes} bytes arrived`));
        return;
      }
      callback(null, chunk);
    },
  });
  const timeout = (): OriginError => originError("timeout", sourceName, "the read was aborted");
  const onAbort = () => body.destroy(timeout());
  const onSourceError = (error: unknown) => {
    // A vendor client aborts its own request on the same signal; its error then only says "aborted".
    body.destroy(
      signal.aborted
        ? timeout()
        : error instanceof OriginError
          ? error
          : originError("unavailable", sourceName, "the connection failed while reading", {
              // Only the message: a vendor error may carry its request, whose URL may hold a SAS token.
              detail: error instanceof Error ? error.message : String(error),
            }),
    );
  };
  source.on("error", onSourceError);
  body.on("close", () => {
    signal.removeEventListener("abort", onAbort);
    source.off("error", onSourceError);
    // A source error after close must not go unhandled.
    source.on("error", () => {});
    source.destroy();
  });
  if (signal.aborted) {
    body.destroy(timeout());
    return body;
  }
  signal.addEventListener("abort", onAbort, { once: true });
  source.pipe(body);
  return body;
}
