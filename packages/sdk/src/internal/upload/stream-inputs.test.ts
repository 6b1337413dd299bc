// createUploadClient reads a ReadableStream only with `streams: streamInputs` (issue #35: a page
// that uploads Files does not download the stream code); without it a stream is refused before
// anything is sent. createClient and the Node clients always read streams (their own tests).
import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { fakeMultipart, patternBytes } from "../../../test/support/fake-multipart.js";
import { envelopeUploadResponse } from "../../../test/support/fixtures.js";
import { BASE_URL, testOptions, useMswServer } from "../../../test/support/msw-server.js";
import { createUploadClient } from "../client/create-upload-client.js";
import { streamInputs } from "./stream-inputs.js";

const server = useMswServer();
const PART = 1024;

const uploadClient = (streams?: typeof streamInputs) =>
  createUploadClient({
    ...testOptions({ multipartThreshold: 1000 }),
    apiKey: "trove_pk_test",
    ...(streams ? { streams } : {}),
  });

/** A stream of `bytes` in 300-byte chunks. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 300));
      at += 300;
    },
  });
}

describe("ReadableStream inputs of createUploadClient", () => {
  it("are refused without `streams`, before any request, naming the option", async () => {
    let requests = 0;
    server.use(
      http.all(`${BASE_URL}/*`, () => {
        requests++;
        return HttpResponse.json(envelopeUploadResponse);
      }),
    );
    for (const size of [500, 3 * PART]) {
      await expect(
        uploadClient().upload(streamOf(patternBytes(size)), { fileName: "a.bin", size }),
      ).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining("streams: streamInputs"),
      });
    }
    expect(requests).toBe(0);
    // Files and bytes need nothing more.
    await uploadClient().upload(patternBytes(500), { fileName: "a.bin" });
    expect(requests).toBe(1);
  });

  it("go up with `streams: streamInputs`: a small one in one POST, a large one in parts", async () => {
    let direct = 0;
    server.use(
      http.post(`${BASE_URL}/api/v1/uploads`, () => {
        direct++;
        return HttpResponse.json(envelopeUploadResponse);
      }),
    );
    await uploadClient(streamInputs).upload(streamOf(patternBytes(500)), { fileName: "small.bin" });
    expect(direct).toBe(1);

    const size = 3 * PART + 7;
    const bytes = patternBytes(size);
    const storage = fakeMultipart(server, { size, partSize: PART });
    await uploadClient(streamInputs).upload(streamOf(bytes), { fileName: "big.bin", size, concurrency: 2 });
    expect(storage.starts).toHaveLength(1);
    expect(storage.assembled()).toEqual(bytes);
  });
});
