import type { ClientContext } from "../client/client-context.js";
import type { PartBody, PartFeed } from "./part.js";
import type { ResolvedInput } from "./upload-input.js";

export function partFeed(
  input: ResolvedInput,
  partSize: number,
  size: number,
  skip: ReadonlySet<number>,
  signal: AbortSignal,
  streams: ClientContext["streams"],
): PartFeed {
  return input.kind === "stream"
    ? // runUpload refused a stream to a client without the stream code: `streams` is there.
      (streams as NonNullable<ClientContext["streams"]>).feed(input.stream, partSize, size, signal)
    : sliceFeed(input, partSize, size, skip);
}

/** Blobs and bytes: each part is a slice, no copy; the bytes are read only when sent. */
function sliceFeed(
  input: Extract<ResolvedInput, { kind: "blob" | "bytes" }>,
  partSize: number,
  size: number,
  skip: ReadonlySet<number>,
): PartFeed {
  const count = Math.ceil(size / partSize);
  let index = 0;
  return {
    async next() {
      while (index < count && skip.has(index)) index++;
      if (index >= count) return undefined;
      const start = index * partSize;
      const end = Math.min(size, start + partSize);
      const body = input.kind === "blob" ? input.blob.slice(start, end) : input.bytes.subarray(start, end);
      return { index: index++, body: body as PartBody, size: end - start };
    },
    async close() {},
  };
}
