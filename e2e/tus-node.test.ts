/**
 * tus-js-client (unchanged, in Node) against a real `trove-server` process over loopback: an
 * upload with the public key that is aborted half-way and resumed by a NEW tus.Upload knowing
 * only the upload URL (no fingerprint store), then read back: the file number from the
 * `Trove-File-No` header, and the bytes at `Trove-File-Url` equal to those sent.
 */
import { randomBytes } from "node:crypto";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import * as tus from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SIZE = 12 * 1024 * 1024;

interface Answered {
  fileNo: string | undefined;
  fileUrl: string | undefined;
  offsets: number[];
}

function runUpload(
  input: Buffer,
  options: tus.UploadOptions,
  abortAt?: number,
): { upload: tus.Upload; done: Promise<Answered> } {
  const answered: Answered = { fileNo: undefined, fileUrl: undefined, offsets: [] };
  let upload: tus.Upload;
  const done = new Promise<Answered>((resolve, reject) => {
    upload = new tus.Upload(input, {
      ...options,
      storeFingerprintForResuming: false,
      retryDelays: [],
      onAfterResponse: (request, response) => {
        const offset = response.getHeader("Upload-Offset");
        if (request.getMethod() === "HEAD" && offset) answered.offsets.push(Number(offset));
        answered.fileNo ??= response.getHeader("Trove-File-No") || undefined;
        answered.fileUrl ??= response.getHeader("Trove-File-Url") || undefined;
      },
      onProgress: (sent) => {
        if (abortAt !== undefined && sent >= abortAt) {
          void upload.abort().then(() => resolve(answered), reject);
        }
      },
      onSuccess: () => resolve(answered),
      onError: reject,
    });
    upload.start();
  });
  return { upload: upload!, done };
}

describe("tus-js-client against trove-server", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("aborts half-way, resumes from the URL alone, and the file is the bytes sent", async () => {
    const bytes = randomBytes(SIZE);
    const options: tus.UploadOptions = {
      endpoint: `${server.baseUrl}/api/v1/tus`,
      headers: { "x-api-key": server.keys.public },
      metadata: { filename: "resumed.bin", filetype: "application/octet-stream", folder: "tus-node" },
    };
    const first = runUpload(bytes, options, SIZE / 2);
    await first.done;
    const url = first.upload.url;
    expect(url).toMatch(/\/api\/v1\/tus\/[0-9a-f-]{36}$/);

    const second = runUpload(bytes, { ...options, uploadUrl: url });
    const answered = await second.done;
    // It resumed: the HEAD found bytes the aborted PATCH had stored, and the file is whole.
    expect(answered.offsets[0]).toBeGreaterThan(0);
    expect(answered.offsets[0]).toBeLessThan(SIZE);
    expect(answered.fileNo).toMatch(/^\d+$/);
    expect(answered.fileUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);

    const delivered = await fetch(answered.fileUrl as string);
    expect(delivered.status).toBe(200);
    expect(Buffer.from(await delivered.arrayBuffer()).equals(bytes)).toBe(true);

    const record = await fetch(`${server.baseUrl}/api/v1/files/${answered.fileNo}`, {
      headers: { "x-api-key": server.keys.private },
    });
    expect(record.status).toBe(200);
    expect(JSON.stringify(await record.json())).toContain("resumed.bin");
  });

  it("uploads in 5 MiB chunks and answers the file on the last PATCH", async () => {
    const bytes = randomBytes(11 * 1024 * 1024 + 7);
    const { done } = runUpload(bytes, {
      endpoint: `${server.baseUrl}/api/v1/tus`,
      headers: { authorization: `Bearer ${server.keys.private}` },
      metadata: { name: "chunked.bin" },
      chunkSize: 5 * 1024 * 1024,
    });
    const answered = await done;
    expect(answered.fileNo).toMatch(/^\d+$/);
  });
});
