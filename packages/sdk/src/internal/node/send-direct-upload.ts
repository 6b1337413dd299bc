import { randomUUID } from "node:crypto";
import { FormDataEncoder } from "form-data-encoder";
import { callApi } from "../request/index.js";
import type { DirectUploadSender } from "../upload/direct-upload-sender.js";
import { sendStreamed } from "./send-streamed.js";

/**
 * Node's direct upload: the call's multipart/form-data encoded as a stream with its
 * Content-Length (form-data-encoder: the WHATWG encoding, names escaped as browsers do, the
 * length computed from the parts' sizes), instead of the FormData itself, which fetch turns into
 * a stream that ky's retry clone and fetch's redirect clone hold in memory whole as it is sent
 * (2 GiB of RSS for a 1 GiB file). Every attempt encodes the form again, and so reads the file
 * again from its Blob (a file path's Blob reads the file from disk): a retry sends it whole.
 * Through callApi, so an upload token refused with 401 is renewed as for any call; the key goes
 * in `x-api-key` with a request id, as the Node clients send every call.
 */
export const sendDirectUpload: DirectUploadSender = (ctx, call) => {
  const encoder = new FormDataEncoder(call.form);
  const body = {
    headers: { "content-type": encoder.contentType, "content-length": String(encoder.contentLength) },
    open: () => pulledFrom(encoder.encode()),
  };
  return callApi(
    {
      ...ctx,
      requests: (sent, key) =>
        sendStreamed(body, ctx, sent, `${ctx.baseUrl}${sent.path}`, {
          "x-api-key": key,
          "x-request-id": randomUUID(),
        }),
    },
    call,
  );
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
