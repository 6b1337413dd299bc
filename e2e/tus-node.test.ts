/**
 * tus-js-client (unchanged, in Node) against a real `trove-server` process over loopback: an
 * upload with the public key whose PATCH is cut off half-way, resumed by a tus.Upload knowing
 * only the upload URL (no fingerprint store), then read back: the file number from the
 * `Trove-File-No` header, and the bytes at `Trove-File-Url` equal to those sent.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:http";
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
      onSuccess: () => resolve(answered),
      onError: reject,
    });
    upload.start();
  });
  return { upload: upload!, done };
}

/** Sends `part` of a PATCH declared `declared` bytes long at offset 0, then destroys the socket. */
async function cutOffPatch(url: string, headers: Record<string, string>, part: Buffer, declared: number) {
  await new Promise<void>((resolve) => {
    const req = request(url, {
      method: "PATCH",
      headers: {
        ...headers,
        "upload-offset": "0",
        "content-type": "application/offset+octet-stream",
        "content-length": String(declared),
      },
    });
    req.on("error", () => resolve());
    req.on("response", () => resolve());
    req.write(part, () =>
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200),
    );
  });
}

/** HEAD until the offset stops moving: the server records a cut-off PATCH's bytes as it notices. */
async function offsetOnceSettled(url: string, headers: Record<string, string>): Promise<number> {
  let last = -1;
  for (let attempt = 0; attempt < 100; attempt++) {
    const res = await fetch(url, { method: "HEAD", headers });
    const offset = Number(res.headers.get("upload-offset"));
    if (offset > 0 && offset === last) return offset;
    last = offset;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return last;
}

describe("tus-js-client against trove-server", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("a PATCH cut off half-way keeps its bytes; tus-js-client resumes from the URL alone", async () => {
    const bytes = randomBytes(SIZE);
    const headers = { "x-api-key": server.keys.public, "tus-resumable": "1.0.0" };
    const meta = (value: string) => Buffer.from(value).toString("base64");
    const created = await fetch(`${server.baseUrl}/api/v1/tus`, {
      method: "POST",
      headers: {
        ...headers,
        "upload-length": String(SIZE),
        "upload-metadata": `filename ${meta("resumed.bin")},filetype ${meta("application/octet-stream")},folder ${meta("tus-node")}`,
      },
    });
    expect(created.status).toBe(201);
    const url = new URL(created.headers.get("location") as string, server.baseUrl).href;
    expect(url).toMatch(/\/api\/v1\/tus\/[0-9a-f-]{36}$/);

    // The connection drops after half the declared body: deterministic, unlike aborting a client
    // whose whole body may already be in the socket by the time its progress event fires.
    await cutOffPatch(url, headers, bytes.subarray(0, SIZE / 2), SIZE);
    const stored = await offsetOnceSettled(url, headers);
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThanOrEqual(SIZE / 2);

    const answered = await runUpload(bytes, {
      endpoint: `${server.baseUrl}/api/v1/tus`,
      uploadUrl: url,
      headers: { "x-api-key": server.keys.public },
    }).done;
    // It resumed where the server said, and the file is whole.
    expect(answered.offsets[0]).toBe(stored);
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
