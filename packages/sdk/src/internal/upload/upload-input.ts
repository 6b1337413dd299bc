import type { DirectUploadSender } from "./direct-upload-sender.js";

/** What `upload()` takes in every runtime. In Node, `@trove/sdk` also takes file paths and Node Readables. */
export type UploadInput = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array>;

/**
 * An upload input reduced to what the engine reads. `blob` and `bytes` can be read at any offset
 * and again (so parts are sliced without copying and a retried part is re-read); `stream` can
 * be read once, in order. ("Input", not "source": sources are the server's origins.)
 */
export type ResolvedInput = (
  | { kind: "blob"; blob: Blob; size: number }
  | { kind: "bytes"; bytes: Uint8Array; size: number }
  | { kind: "stream"; stream: ReadableStream<Uint8Array>; size?: number | undefined }
) & {
  name?: string | undefined;
  type?: string | undefined;
  /**
   * Stable identity of the content, for resuming after a reload: undefined when the input has
   * none (a bare Blob, bytes, a stream), so that another content of the same size is never
   * resumed into an old session.
   */
  identity?: string | undefined;
  /**
   * How a direct upload of it is sent, where not as a FormData through the client's engine:
   * Node's resolver sets it (../node/send-direct-upload.ts streams the body from the source).
   */
  sendDirect?: DirectUploadSender | undefined;
};

/** Turns what a caller passed to `upload()` into a ResolvedInput; undefined when it cannot. */
export type InputResolver = (input: unknown) => Promise<ResolvedInput | undefined>;

/** File, Blob, ArrayBuffer, typed arrays and web ReadableStream: the inputs every runtime has. */
export const resolveWebInput: InputResolver = async (input) => {
  if (typeof Blob !== "undefined" && input instanceof Blob) {
    const file = isFile(input) ? input : undefined;
    return {
      kind: "blob",
      blob: input,
      size: input.size,
      name: file?.name,
      type: input.type || undefined,
      // name + size + lastModified is what browsers offer to recognise the same file after a reload.
      identity: file ? `file:${file.name}:${file.size}:${file.lastModified}:${file.type}` : undefined,
    };
  }
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) {
    const bytes =
      input instanceof ArrayBuffer
        ? new Uint8Array(input)
        : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    return { kind: "bytes", bytes, size: bytes.byteLength };
  }
  if (typeof ReadableStream !== "undefined" && input instanceof ReadableStream) {
    return { kind: "stream", stream: input };
  }
  return undefined;
};

function isFile(blob: Blob): blob is File {
  return (
    typeof (blob as Partial<File>).name === "string" &&
    typeof (blob as Partial<File>).lastModified === "number"
  );
}
