/**
 * The body of a google_cloud object as the reader hands it out: streamed through a byte counter
 * that fails with `too_large` once more than `maxBytes` arrive (the size the origin announced is
 * not trusted to be the size it sends), with the read's deadline turned into `timeout` and every
 * other failure into `unavailable`. Destroying the returned stream releases the connection.
 */
import { type Readable, Transform } from "node:stream";
import { discard } from "./gcs-origin-network.js";
import { OriginError, originError } from "./origin-error.js";

export interface CappedBodyOptions {
  maxBytes: number;
  signal: AbortSignal;
  sourceName: string;
}

export function cappedBody(source: Readable, { maxBytes, signal, sourceName }: CappedBodyOptions): Readable {
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
  const fail = (error: unknown) => {
    if (body.destroyed) return;
    if (signal.aborted) {
      body.destroy(originError("timeout", sourceName, "the object's bytes did not arrive in time"));
    } else if (error instanceof OriginError) {
      body.destroy(error);
    } else {
      body.destroy(originError("unavailable", sourceName, "the connection failed while reading the object"));
    }
  };
  const onAbort = () => fail(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  source.on("error", fail);
  body.on("close", () => {
    signal.removeEventListener("abort", onAbort);
    if (!source.readableEnded) discard(source);
  });
  source.pipe(body);
  return body;
}
