import { abortErrorFrom } from "../request/index.js";

/** The non-empty chunks of a web stream, in order, for the one reader a stream allows. */
export interface ChunkReader {
  /** The next chunk; undefined at the end. Rejects with AbortError once `signal` aborts. */
  next(): Promise<Uint8Array | undefined>;
  /** Stops listening to `signal` and cancels the stream unless it was read to its end. */
  close(): Promise<void>;
}

export function chunkReader(stream: ReadableStream<Uint8Array>, signal: AbortSignal): ChunkReader {
  const reader = stream.getReader();
  let done = false;
  const close = async () => {
    signal.removeEventListener("abort", close);
    if (!done) await reader.cancel().catch(() => undefined);
    done = true;
  };
  // A slow stream must not hold a stopped upload: cancelling ends the pending read.
  signal.addEventListener("abort", close, { once: true });
  return {
    async next() {
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (signal.aborted) throw abortErrorFrom(signal);
        if (ended) {
          done = true;
          return undefined;
        }
        if (value.byteLength > 0) return value;
      }
    },
    close,
  };
}
