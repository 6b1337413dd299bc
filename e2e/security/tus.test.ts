/**
 * Security regressions of tus at /api/v1/tus against a real `trove-server` process over
 * loopback, played with the public key as a hostile page would: metadata injection (a huge
 * Upload-Metadata, values that are not base64, a `folder` climbing out with `../`), lengths that
 * are not lengths (negative, huge, not a number), a PATCH past Upload-Length, two PATCHes racing
 * on one upload, a credential whose policy does not allow what it sends, and someone else's
 * upload URL. Every refusal is a 4xx in the upload envelope; nothing is stored for it.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PUBLIC_MAX = 2_000_000;

function metadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
}

describe("tus under attack (public key)", () => {
  let server: ServerProcess;
  let tus: string;

  beforeAll(async () => {
    server = await startServerProcess({
      TROVE_PUBLIC_KEY_MAX_FILE_SIZE: String(PUBLIC_MAX),
      TROVE_PUBLIC_KEY_ALLOWED_TYPES: "image/*",
      TROVE_PUBLIC_KEY_FOLDER: "uploads",
      TROVE_PUBLIC_KEY_FOLDER_MATCH: "prefix",
    });
    tus = `${server.baseUrl}/api/v1/tus`;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const create = (headers: Record<string, string>, key = server.keys.public) =>
    fetch(tus, { method: "POST", headers: { "x-api-key": key, "tus-resumable": "1.0.0", ...headers } });

  const patch = (url: string, offset: number, body: Uint8Array, key = server.keys.public) =>
    fetch(url, {
      method: "PATCH",
      headers: {
        "x-api-key": key,
        "tus-resumable": "1.0.0",
        "upload-offset": String(offset),
        "content-type": "application/offset+octet-stream",
      },
      body: body as BodyInit,
    });

  const offsetOf = async (url: string, key = server.keys.public) =>
    (
      await fetch(url, { method: "HEAD", headers: { "x-api-key": key, "tus-resumable": "1.0.0" } })
    ).headers.get("upload-offset");

  async function newUpload(length: number, fields: Record<string, string> = {}): Promise<string> {
    const res = await create({
      "upload-length": String(length),
      "upload-metadata": metadata({ filename: "a.png", folder: "uploads/x", ...fields }),
    });
    expect(res.status).toBe(201);
    return new URL(res.headers.get("location") as string, tus).toString();
  }

  it("a huge Upload-Metadata is refused before anything is created", async () => {
    const huge = metadata({ filename: "a.png", tags: "t,".repeat(40_000) });
    const res = await create({ "upload-length": "10", "upload-metadata": huge });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    // The server is still there for the next request.
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  });

  it("metadata that is not base64, or a folder that climbs out, is 400 in the upload envelope", async () => {
    for (const value of [
      "filename %%%not-base64",
      metadata({ filename: "a.png", folder: "uploads/../../etc" }),
    ]) {
      const res = await create({ "upload-length": "10", "upload-metadata": value });
      expect(res.status, value).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, errorCode: "VALIDATION_FAILED" });
    }
  });

  it("Upload-Length negative, not a number or beyond any limit is refused before any byte", async () => {
    for (const length of ["-1", "ten", "0x10", "1e9", "99999999999999999999999"]) {
      const res = await create({
        "upload-length": length,
        "upload-metadata": metadata({ filename: "a.png" }),
      });
      expect(res.status, length).toBe(400);
    }
    const overPolicy = await create({
      "upload-length": String(PUBLIC_MAX + 1),
      "upload-metadata": metadata({ filename: "a.png", folder: "uploads" }),
    });
    expect(overPolicy.status).toBe(413);
    expect(await overPolicy.json()).toMatchObject({ errorCode: "FILE_TOO_LARGE" });
    const overServer = await create(
      { "upload-length": String(2 ** 50), "upload-metadata": metadata({ filename: "a.bin" }) },
      server.keys.private,
    );
    expect(overServer.status).toBe(413);
  });

  it("a PATCH past Upload-Length, declared or streamed, stores nothing past it", async () => {
    const url = await newUpload(100);
    expect((await patch(url, 0, randomBytes(101))).status).toBe(413);
    expect(await offsetOf(url)).toBe("0");
    // Chunked (no Content-Length): cut at the length, refused.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, {
        method: "PATCH",
        headers: {
          "x-api-key": server.keys.public,
          "tus-resumable": "1.0.0",
          "upload-offset": "0",
          "content-type": "application/offset+octet-stream",
          "transfer-encoding": "chunked",
        },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write(randomBytes(60));
      req.end(randomBytes(60));
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(Number(await offsetOf(url))).toBeLessThanOrEqual(100);
  });

  it("two PATCHes racing on one upload: the file is one client's bytes whole, never a mix", async () => {
    const size = 3 * 1024 * 1024;
    const [one, two] = [randomBytes(size), randomBytes(size)] as const;
    const created = await create(
      { "upload-length": String(size), "upload-metadata": metadata({ filename: "race.bin" }) },
      server.keys.private,
    );
    const url = new URL(created.headers.get("location") as string, tus).toString();
    const answers = await Promise.all([
      patch(url, 0, one, server.keys.private),
      patch(url, 0, two, server.keys.private),
    ]);
    for (const answer of answers) {
      expect(answer.status === 204 || (answer.status >= 400 && answer.status < 500)).toBe(true);
    }
    // The lock goes to one PATCH; the other finds the offset moved (409). The winner may have been
    // cut short by the loser's lock request: it resumes from the offset stored.
    const winner = answers.findIndex((answer) => answer.status === 204);
    expect(winner).toBeGreaterThanOrEqual(0);
    const bytes = winner === 0 ? one : two;
    let fileUrl = answers[winner]?.headers.get("trove-file-url");
    if (!fileUrl) {
      const offset = Number(await offsetOf(url, server.keys.private));
      const finished = await patch(url, offset, bytes.subarray(offset), server.keys.private);
      expect(finished.status).toBe(204);
      fileUrl = finished.headers.get("trove-file-url");
    }
    const stored = Buffer.from(await (await fetch(fileUrl as string)).arrayBuffer());
    expect(stored.equals(bytes)).toBe(true);
  });

  it("a public key whose policy refuses the type: 415 at the end, nothing kept", async () => {
    const bytes = randomBytes(5000);
    const url = await newUpload(bytes.length, { filename: "a.bin" });
    const res = await patch(url, 0, bytes);
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ success: false, errorCode: "TYPE_NOT_ALLOWED" });
    const head = await fetch(url, {
      method: "HEAD",
      headers: { "x-api-key": server.keys.public, "tus-resumable": "1.0.0" },
    });
    expect(head.status).toBe(404);
  });

  it("a folder outside the public key's policy is 403 at creation", async () => {
    const res = await create({
      "upload-length": "10",
      "upload-metadata": metadata({ filename: "a.png", folder: "elsewhere" }),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ errorCode: "FOLDER_NOT_ALLOWED" });
  });

  it("someone else's upload URL is 404 for HEAD, PATCH and DELETE", async () => {
    const url = await newUpload(10);
    for (const method of ["HEAD", "PATCH", "DELETE"]) {
      const res = await fetch(url, {
        method,
        headers: {
          "x-api-key": server.keys.private2,
          "tus-resumable": "1.0.0",
          "upload-offset": "0",
          "content-type": "application/offset+octet-stream",
        },
        ...(method === "PATCH" ? { body: new Uint8Array(10) } : {}),
      });
      expect(res.status, method).toBe(404);
    }
    expect(await offsetOf(url)).toBe("0");
  });
});
