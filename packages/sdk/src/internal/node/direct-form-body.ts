import { FormDataEncoder } from "form-data-encoder";
import type { StreamedBody } from "../request/index.js";
import type { DirectFormBody } from "../upload/direct-upload.js";

/**
 * Node's direct-upload body: the multipart/form-data of the text fields and the file, encoded as
 * a stream with its Content-Length (form-data-encoder: the WHATWG encoding, names escaped as
 * browsers do, and the length computed from the parts' sizes), rather than a FormData that fetch
 * would turn into one stream only once, and that ky's retry clone and fetch's redirect clone hold
 * in memory whole as it is sent (2 GiB of RSS for a 1 GiB file). Every attempt reads the file
 * again from its Blob (a file path's Blob reads the file from disk), so a retry sends it whole.
 */
export const directFormBody: DirectFormBody = (fields, file, fileName): StreamedBody => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", file, fileName);
  const encoder = new FormDataEncoder(form);
  return {
    headers: { "content-type": encoder.contentType, "content-length": String(encoder.contentLength) },
    open: () => pulledFrom(encoder.encode()),
    replayable: true,
  };
};

/**
 * A byte stream that reads the encoder only as fetch pulls (ReadableStream.from is missing from
 * the DOM typings the SDK compiles against), and stops the file read when fetch cancels.
 */
function pulledFrom(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
