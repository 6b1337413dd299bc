// Multipart uploads on the fs driver through the API (app.inject): start (endpoint 3), the part
// gateway (endpoint 4), complete (endpoint 5) and the sweeper. Real-HTTP streaming and the large
// upload are in multipart-http.test.ts, the s3 driver in multipart-s3.test.ts.
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashStream } from "../src/content-hash/index.js";
import { COMPLETING_STALE_MS } from "../src/multipart/complete-session.js";
import { completeSession, receivePart, sweepExpiredSessions } from "../src/multipart/index.js";
import { FS_MULTIPART_DIR, MAX_PARTS } from "../src/storage/multipart/index.js";
import {
  complete,
  completeRaw,
  deliveredSha256,
  MiB,
  ownerOf,
  pathOf,
  putPart,
  sha256,
  start,
  startRaw,
  testBytes,
  uploadAll,
} from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { pattern, pngBomb } from "./support/test-images.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

const UNAUTHORIZED = { success: false, error: "Unauthorized", message: "Invalid or missing API key" };
const SESSION_NOT_FOUND = { success: false, error: "Session not found" };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function pendingUploads(storageDir: string): Promise<string[]> {
  return readdir(join(storageDir, FS_MULTIPART_DIR)).catch(() => []);
}

describe("POST /api/v1/multipart/start", () => {
  const base = { file_name: "clip.bin", size: 10, format: "application/octet-stream" };

  it.each([
    ["size 0", { ...base, size: 0 }, "size: File is empty"],
    ["size not an integer", { ...base, size: 1.5 }, "size: Invalid input: expected int, received number"],
    ["size as a string", { ...base, size: "10" }, "size: Invalid input: expected number, received string"],
    [
      "file_name missing",
      { size: 10, format: "image/png" },
      "file_name: Invalid input: expected string, received undefined",
    ],
    [
      "file_name a number",
      { ...base, file_name: 123 },
      "file_name: Invalid input: expected string, received number",
    ],
    [
      "file_name a path",
      { ...base, file_name: "a/b" },
      "file_name: file_name must not contain path separators or NUL",
    ],
    [
      "format missing",
      { file_name: "a", size: 10 },
      "format: Invalid input: expected string, received undefined",
    ],
    ["ttl_seconds 0", { ...base, ttl_seconds: 0 }, "ttl_seconds: Too small: expected number to be >=1"],
    [
      "ttl_seconds over 7 days",
      { ...base, ttl_seconds: 604_801 },
      "ttl_seconds: Too big: expected number to be <=604800",
    ],
    ["tags a string", { ...base, tags: "a,b" }, "tags: Invalid input: expected array, received string"],
    [
      "random_prefix a string",
      { ...base, random_prefix: "true" },
      "random_prefix: Invalid input: expected boolean, received string",
    ],
    [
      "metadata an array",
      { ...base, metadata: [1] },
      "metadata: Invalid input: expected record, received array",
    ],
    [
      "size over the configured maximum (10 GiB)",
      { ...base, size: 10 * 1024 ** 3 + 1 },
      "size exceeds the maximum multipart upload size of 10737418240 bytes",
    ],
  ])("400 naming the problem: %s", async (_name, body, error) => {
    const res = await startRaw(t, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error });
  });

  it("400 for a folder registration would refuse, before anything is uploaded", async () => {
    const deep = Array.from({ length: 33 }, (_, i) => `d${i}`).join("/");
    expect((await startRaw(t, { ...base, folder: deep })).json()).toEqual({
      success: false,
      error: "folders nest at most 32 levels deep",
    });
    expect((await startRaw(t, { ...base, folder: "a/../b" })).statusCode).toBe(400);
  });

  it("400 without a body; nothing is begun in storage", async () => {
    const before = await pendingUploads(t.storageDir);
    const res = await startRaw(t, undefined);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: "Request body must be a JSON object",
    });
    expect(await pendingUploads(t.storageDir)).toEqual(before);
  });

  it("401 without a key or with a wrong one, in the multipart envelope", async () => {
    expect((await startRaw(t, base, null)).json()).toEqual(UNAUTHORIZED);
    const wrong = await startRaw(t, base, "trove_sk_notakeyatallnotakeyatall");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(UNAUTHORIZED);
  });

  it("returns session_id, part_size, one signed gateway URL per part and expires_at", async () => {
    const before = Math.floor(Date.now() / 1000);
    const session = await start(t, { file_name: "movie.mp4", size: 12 * MiB + 1, format: "video/mp4" });
    expect(session.part_size).toBe(5 * MiB);
    expect(session.parts).toHaveLength(3);
    // Default TTL: one hour.
    expect(session.expires_at).toBeGreaterThanOrEqual(before + 3600);
    expect(session.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
    session.parts.forEach((url, i) => {
      expect(url).toMatch(
        new RegExp(
          `^${t.config.publicUrl}/api/v1/multipart/parts/${session.session_id}/${i + 1}\\?expires=${session.expires_at}&signature=[0-9a-f]{64}$`,
        ),
      );
      expect(url).not.toContain(t.keys.private);
    });
    const row = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: session.session_id } });
    expect(row).toMatchObject({ status: "pending", mode: "gateway", partCount: 3, partSize: 5 * MiB });
  });

  it("honours ttl_seconds, and accepts a public key", async () => {
    const session = await start(t, { ...base, ttl_seconds: 120 }, t.keys.public);
    const now = Math.floor(Date.now() / 1000);
    expect(session.expires_at).toBeGreaterThanOrEqual(now + 119);
    expect(session.expires_at).toBeLessThanOrEqual(now + 120);
    expect(session.parts).toHaveLength(1);
  });

  it("chooses the part size on fs: about 32 parts of 5 to 32 MiB, larger only within 10,000 parts", async () => {
    for (const [size, partSize, count] of [
      [1, 5 * MiB, 1],
      [5 * MiB, 5 * MiB, 1],
      [5 * MiB + 1, 5 * MiB, 2],
      [160 * MiB, 5 * MiB, 32],
      [160 * MiB + 1, 6 * MiB, 27],
      [1024 * MiB, 32 * MiB, 32],
      [2048 * MiB + 1, 32 * MiB, 65],
    ] as const) {
      const session = await start(t, { ...base, size });
      expect([session.part_size, session.parts.length]).toEqual([partSize, count]);
      const row = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: session.session_id } });
      expect([row.partSize, row.partCount]).toEqual([partSize, count]);
    }
    const limits = await createTestApp({ config: { multipart: { maxFileBytes: 500 * 1024 ** 3 } } });
    try {
      const size = 400 * 1024 ** 3; // 400 GiB: 32 MiB parts would be 12,800
      const session = await start(limits, { ...base, size });
      expect(session.part_size).toBe(41 * MiB);
      expect(session.parts).toHaveLength(Math.ceil(size / (41 * MiB)));
      expect(session.parts.length).toBeLessThanOrEqual(MAX_PARTS);
      const over = await startRaw(limits, { ...base, size: 500 * 1024 ** 3 + 1 });
      expect(over.json()).toEqual({
        success: false,
        error: `size exceeds the maximum multipart upload size of ${500 * 1024 ** 3} bytes`,
      });
    } finally {
      await limits.close();
    }
  });
});

describe("PUT part URLs (gateway)", () => {
  it("stores a part: 200, quoted ETag header, { success, part_number, size, etag }", async () => {
    const data = testBytes(1234);
    const session = await start(t, { file_name: "one.bin", size: data.length });
    const res = await putPart(t, session.parts[0] as string, data);
    expect(res.statusCode).toBe(200);
    // The fs part ETag is the part's content hash (block digests combined), not a second SHA-256.
    const partHash = (await hashStream([data])).hash;
    expect(partHash).not.toBe(sha256(data));
    expect(res.json()).toEqual({ success: true, part_number: 1, size: 1234, etag: partHash });
    expect(res.headers.etag).toBe(`"${partHash}"`);
    const part = await t.app.db.multipartPart.findUniqueOrThrow({
      where: { sessionId_number: { sessionId: session.session_id, number: 1 } },
    });
    expect(part).toMatchObject({ size: 1234n, checksum: partHash });
    expect(part.blockDigests).toEqual((await hashStream([data])).blockDigests);
  });

  it("needs no API key and ignores one that is sent", async () => {
    const data = testBytes(10);
    const session = await start(t, { file_name: "k.bin", size: 10 });
    const res = await putPart(t, session.parts[0] as string, data, {
      "content-type": "application/octet-stream",
      "x-api-key": "trove_sk_notakeyatallnotakeyatall",
    });
    expect(res.statusCode).toBe(200);
  });

  it("400 for a body of the wrong size; nothing recorded, and an earlier upload of the part is forgotten", async () => {
    const data = testBytes(5 * MiB + 10);
    const session = await start(t, { file_name: "sizes.bin", size: data.length });
    const [first, second] = session.parts as [string, string];
    expect((await putPart(t, first, data.subarray(0, 5 * MiB))).statusCode).toBe(200);

    const short = await putPart(t, first, testBytes(17));
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({
      success: false,
      error: `Part 1 must be ${5 * MiB} bytes, Content-Length is 17`,
    });
    const long = await putPart(t, second, testBytes(11));
    expect(long.json()).toEqual({ success: false, error: "Part 2 must be 10 bytes, Content-Length is 11" });
    expect(await t.app.db.multipartPart.count({ where: { sessionId: session.session_id } })).toBe(1);

    // Refused by its Content-Length before a byte was written: the earlier part 1 still stands.
    expect((await putPart(t, second, data.subarray(5 * MiB))).statusCode).toBe(200);
    expect((await completeRaw(t, session.session_id)).statusCode).toBe(200);

    // A part whose streamed length differs (no Content-Length up front) is refused and forgotten.
    const again = await start(t, { file_name: "sizes2.bin", size: data.length });
    expect((await putPart(t, again.parts[1] as string, data.subarray(5 * MiB))).statusCode).toBe(200);
    const url = new URL(again.parts[1] as string);
    await expect(
      receivePart(t.app.multipartDeps, {
        sessionId: again.session_id,
        partNumber: "2",
        expires: url.searchParams.get("expires"),
        signature: url.searchParams.get("signature"),
        contentLength: undefined,
        body: Readable.from([testBytes(4), testBytes(4)]),
      }),
    ).rejects.toMatchObject({ status: 400, message: "Part 2 must be 10 bytes, received 8" });
    const missing = await completeRaw(t, again.session_id);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ success: false, error: "Missing parts: 1, 2" });
  });

  it("uploading a part again replaces it", async () => {
    const data = testBytes(5 * MiB + 100, 7);
    const session = await start(t, { file_name: "again.bin", size: data.length });
    const first = session.parts[0] as string;
    expect((await putPart(t, first, testBytes(5 * MiB, 99))).statusCode).toBe(200);
    const record = () =>
      t.app.db.multipartPart.findUniqueOrThrow({
        where: { sessionId_number: { sessionId: session.session_id, number: 1 } },
      });
    const before = await record();
    await uploadAll(t, session, data, [1, 0]);
    // The one record of part 1 now describes the new bytes.
    const partHash = (await hashStream([data.subarray(0, 5 * MiB)])).hash;
    const after = await record();
    expect(after).toMatchObject({ size: BigInt(5 * MiB), etag: partHash, checksum: partHash });
    expect(after.blockDigests).toHaveLength(5);
    expect(after.blockDigests).not.toEqual(before.blockDigests);
    expect(after.createdAt.getTime()).toBeGreaterThanOrEqual(before.createdAt.getTime());
    const done = await complete(t, session.session_id);
    expect(await deliveredSha256(t, done.url)).toBe(sha256(data));
  });

  it("a part whose re-upload died mid-write (its stale record kept) cannot complete until uploaded again", async () => {
    const data = testBytes(5 * MiB + 100, 11);
    const session = await start(t, { file_name: "crash.bin", size: data.length });
    await uploadAll(t, session, data);
    // What a crash inside the fs store's putPart leaves: the database still holds part 1's record
    // (it is only forgotten when putPart fails), but the store removed its own record of part 1
    // before overwriting the bytes.
    const { storageUploadId } = await t.app.db.multipartSession.findUniqueOrThrow({
      where: { id: session.session_id },
    });
    await rm(join(t.storageDir, FS_MULTIPART_DIR, storageUploadId as string, "parts", "1.json"));
    expect(await t.app.db.multipartPart.count({ where: { sessionId: session.session_id } })).toBe(2);

    const refused = await completeRaw(t, session.session_id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ success: false, error: "Part 1 was not uploaded with that ETag" });
    // The session stays open: upload the part again and complete.
    await uploadAll(t, session, data, [0]);
    const done = await complete(t, session.session_id);
    expect(await deliveredSha256(t, done.url)).toBe(sha256(data));
  });

  it("400 Invalid signature for a tampered URL, a missing signature or a changed part number", async () => {
    const session = await start(t, { file_name: "tamper.bin", size: 6 * MiB });
    const url = new URL(session.parts[0] as string);
    const signature = url.searchParams.get("signature") as string;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`;
    const variants = [
      `${url.pathname}?expires=${url.searchParams.get("expires")}&signature=${flipped}`,
      `${url.pathname}?expires=${Number(url.searchParams.get("expires")) + 3600}&signature=${signature}`,
      `${url.pathname}?expires=${url.searchParams.get("expires")}`,
      `${url.pathname}`,
      `${url.pathname.replace(/\/1$/, "/2")}${url.search}`,
      `${url.pathname.replace(session.session_id, "00000000-0000-7000-8000-000000000000")}${url.search}`,
      `${url.pathname}${url.search}&signature=${signature}`,
    ];
    for (const path of variants) {
      const res = await t.app.inject({
        method: "PUT",
        url: path,
        headers: { "content-type": "application/octet-stream" },
        payload: testBytes(5 * MiB),
      });
      expect(res.statusCode, path).toBe(400);
      expect(res.json(), path).toEqual({ success: false, error: "Invalid signature" });
    }
    expect(await t.app.db.multipartPart.count({ where: { sessionId: session.session_id } })).toBe(0);
  });

  it("400 Part URL expired once `expires` has passed (correctly signed)", async () => {
    const session = await start(t, { file_name: "late.bin", size: 10 });
    const past = Math.floor(Date.now() / 1000) - 1;
    const url = t.app.multipartDeps.signer.url(session.session_id, 1, past);
    const res = await putPart(t, url, testBytes(10));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: "Part URL expired" });
  });

  it("400 Session not found for a correctly signed URL of a session that does not exist", async () => {
    const expires = Math.floor(Date.now() / 1000) + 60;
    const url = t.app.multipartDeps.signer.url("01a20166-be89-7502-952f-aeec61debab3", 1, expires);
    expect((await putPart(t, url, testBytes(10))).json()).toEqual({
      success: false,
      error: "Session not found",
    });
  });

  it("400 for a part number outside the session", async () => {
    const session = await start(t, { file_name: "range.bin", size: 10 });
    const url = t.app.multipartDeps.signer.url(session.session_id, 2, session.expires_at);
    const res = await putPart(t, url, testBytes(10));
    expect(res.json()).toEqual({ success: false, error: "Part number must be from 1 to 1" });
  });

  it("400 unless Content-Type is application/octet-stream", async () => {
    const session = await start(t, { file_name: "ct.bin", size: 10 });
    const url = session.parts[0] as string;
    for (const headers of [
      { "content-type": "text/plain" },
      { "content-type": "application/json" },
      { "content-type": "multipart/form-data; boundary=x" },
      { "content-type": "not a type" },
      {},
    ]) {
      const res = await putPart(t, url, testBytes(10), headers as Record<string, string>);
      expect(res.statusCode, JSON.stringify(headers)).toBe(400);
      expect(res.json()).toEqual({ success: false, error: "Content-Type must be application/octet-stream" });
    }
    const ok = await putPart(t, url, testBytes(10), { "content-type": "Application/Octet-Stream; x=1" });
    expect(ok.statusCode).toBe(200);
  });

  it("is reachable from pages on other origins: preflight answered, ETag exposed", async () => {
    const session = await start(t, { file_name: "cors.bin", size: 10 });
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: pathOf(session.parts[0] as string),
      headers: { origin: "https://app.example", "access-control-request-method": "PUT" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(preflight.headers["access-control-allow-methods"]).toContain("PUT");
    const put = await putPart(t, session.parts[0] as string, testBytes(10), {
      "content-type": "application/octet-stream",
      origin: "https://app.example",
    });
    expect(put.headers["access-control-allow-origin"]).toBe("*");
    expect(String(put.headers["access-control-expose-headers"]).toLowerCase()).toContain("etag");
  });

  it("400 once the session is completed", async () => {
    const data = testBytes(10);
    const session = await start(t, { file_name: "closed.bin", size: 10 });
    await uploadAll(t, session, data);
    await complete(t, session.session_id);
    const res = await putPart(t, session.parts[0] as string, data);
    expect(res.json()).toEqual({ success: false, error: "Session already completed" });
  });
});

describe("POST /api/v1/multipart/complete", () => {
  it("assembles parts sent out of order, the last one shorter; the file reads back byte-exact", async () => {
    const data = testBytes(3 * 5 * MiB + 4321, 3);
    const session = await start(t, {
      file_name: "assembled.bin",
      size: data.length,
      folder: "videos/2024",
      tags: ["raw", "cam"],
      metadata: { take: 3 },
      custom_id: "take-3",
    });
    expect(session.parts).toHaveLength(4);
    await uploadAll(t, session, data, [3, 1, 0, 2]);
    const done = await complete(t, session.session_id);
    expect(done).toMatchObject({
      id: session.session_id,
      name: "assembled.bin",
      path: "videos/2024/assembled.bin",
      width: null,
      height: null,
      file_size: data.length,
      workspace_no: t.workspace.workspaceNo,
    });
    expect(done.url).toBe(`${t.config.assetsUrl}/${t.workspace.workspaceNo}/videos/2024/assembled.bin`);
    expect(await deliveredSha256(t, done.url)).toBe(sha256(data));

    const file = await t.app.db.file.findUniqueOrThrow({ where: { id: done.id } });
    expect(file).toMatchObject({
      uploadSource: "multipart",
      tags: ["raw", "cam"],
      metadata: { take: 3 },
      customId: "take-3",
      hash: (await hashStream([data])).hash,
    });
    const row = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: session.session_id } });
    expect(row).toMatchObject({ status: "completed", completedFileId: done.id });
    expect(await t.app.db.multipartPart.count({ where: { sessionId: session.session_id } })).toBe(0);
    expect(await pendingUploads(t.storageDir)).not.toContain(row.storageUploadId);
  });

  it("gives the same content hash as a direct upload of the same bytes", async () => {
    const data = testBytes(5 * MiB + 777, 11);
    const direct = uploaded(await directUpload(t, { file_name: "same-direct.bin" }, { content: data }));
    const session = await start(t, { file_name: "same-multipart.bin", size: data.length });
    await uploadAll(t, session, data);
    const done = await complete(t, session.session_id);
    const file = await t.app.db.file.findUniqueOrThrow({ where: { id: done.id } });
    expect(file.hash).toBe(direct.hash);
    expect(file.hash).toBe((await hashStream([data])).hash);
  });

  it("400 naming the missing parts; the session stays open for them", async () => {
    const data = testBytes(3 * 5 * MiB + 1);
    const session = await start(t, { file_name: "gaps.bin", size: data.length });
    await uploadAll(t, session, data, [0]);
    const res = await completeRaw(t, session.session_id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: "Missing parts: 2, 3, 4" });
    await uploadAll(t, session, data, [1, 2, 3]);
    const done = await complete(t, session.session_id);
    expect(await deliveredSha256(t, done.url)).toBe(sha256(data));
  });

  it("is idempotent: completing twice, or twice at once, gives the same file", async () => {
    const data = testBytes(5 * MiB + 3);
    const session = await start(t, { file_name: "twice.bin", size: data.length });
    await uploadAll(t, session, data);
    const [a, b] = await Promise.all([complete(t, session.session_id), complete(t, session.session_id)]);
    const c = await complete(t, session.session_id);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(await t.app.db.file.count({ where: { id: session.session_id } })).toBe(1);
  });

  it("404 Session not found for another workspace's session, an unknown id or a malformed one", async () => {
    const session = await start(t, { file_name: "mine.bin", size: 10 });
    await uploadAll(t, session, testBytes(10));
    for (const [id, key] of [
      [session.session_id, t.keys.private2],
      ["01a20166-be89-7502-952f-aeec61debab3", t.keys.private],
      ["not-a-session", t.keys.private],
    ] as const) {
      const res = await completeRaw(t, id, key);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(SESSION_NOT_FOUND);
    }
    expect((await completeRaw(t, session.session_id)).statusCode).toBe(200);
  });

  it("registers images like any upload: dimensions and format from the content", async () => {
    const png = await pattern(64, 48);
    const session = await start(t, { file_name: "picture", size: png.length, format: "image/png" });
    await uploadAll(t, session, png);
    const done = await complete(t, session.session_id);
    expect(done).toMatchObject({
      name: "picture.png",
      width: 64,
      height: 48,
      format: "png",
      file_size: png.length,
    });
    expect(await deliveredSha256(t, done.url)).toBe(sha256(png));
  });

  it("400 when registration refuses the content (a decompression bomb); the session is aborted", async () => {
    const bomb = pngBomb(20_000, 20_000);
    const session = await start(t, { file_name: "bomb.png", size: bomb.length, format: "image/png" });
    await uploadAll(t, session, bomb);
    const res = await completeRaw(t, session.session_id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: expect.stringMatching(/pixel/) });
    const row = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: session.session_id } });
    expect(row.status).toBe("aborted");
    expect(await t.app.storage.exists(row.storageKey as string)).toBe(false);
    expect((await completeRaw(t, session.session_id)).json()).toEqual({
      success: false,
      error: "Session aborted",
    });
  });

  it("takes over a complete whose instance died after assembling, without assembling twice", async () => {
    const data = testBytes(5 * MiB + 50, 13);
    const session = await start(t, { file_name: "takeover.bin", size: data.length });
    await uploadAll(t, session, data);
    // The dead instance claimed the session and assembled the object, then stopped.
    const row = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: session.session_id } });
    const parts = await t.app.db.multipartPart.findMany({ where: { sessionId: session.session_id } });
    await t.app.multipartDeps.store.complete({
      key: row.storageKey as string,
      uploadId: row.storageUploadId as string,
      parts: parts.map((p) => ({ number: p.number, etag: p.etag as string, size: Number(p.size) })),
    });
    const claimedAt = new Date(Date.now() - COMPLETING_STALE_MS / 4);
    await t.app.db.multipartSession.update({
      where: { id: session.session_id },
      data: { status: "completing", updatedAt: claimedAt },
    });
    // Still fresh: another complete waits for it, then gives up with 409.
    await expect(
      completeSession(t.app.multipartDeps, await ownerOf(t, session.session_id), session.session_id, {
        waitMs: 300,
      }),
    ).rejects.toMatchObject({ status: 409 });
    await t.app.db.multipartSession.update({
      where: { id: session.session_id },
      data: { updatedAt: new Date(Date.now() - COMPLETING_STALE_MS - 1000) },
    });
    const done = await complete(t, session.session_id);
    expect(await deliveredSha256(t, done.url)).toBe(sha256(data));
    const file = await t.app.db.file.findUniqueOrThrow({ where: { id: done.id } });
    expect(file.hash).toBe((await hashStream([data])).hash);
  });

  it("a long complete touches its session while it works, so no one takes it over", async () => {
    const data = testBytes(5 * MiB + 70, 17);
    const session = await start(t, { file_name: "heartbeat.bin", size: data.length });
    await uploadAll(t, session, data);
    const deps = t.app.multipartDeps;
    const touches: number[] = [];
    let releaseAssembly: () => void = () => {};
    const assembling = new Promise<void>((resolve) => {
      releaseAssembly = resolve;
    });
    const slowStore = {
      ...deps.store,
      complete: async (input: Parameters<typeof deps.store.complete>[0]) => {
        await assembling; // an assembly that takes as long as the test wants
        return deps.store.complete(input);
      },
    };
    const auth = await ownerOf(t, session.session_id);
    const done = completeSession({ ...deps, store: slowStore }, auth, session.session_id, {
      heartbeatMs: 40,
    });
    const readUpdatedAt = async () =>
      (await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: session.session_id } })).updatedAt;
    for (let i = 0; i < 4; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 120));
      touches.push((await readUpdatedAt()).getTime());
    }
    releaseAssembly();
    const file = await done;
    expect(file.id).toBe(session.session_id);
    // Every read saw a newer touch than the one before: the session looked alive throughout.
    for (let i = 1; i < touches.length; i += 1) expect(touches[i]).toBeGreaterThan(touches[i - 1] as number);
    // And it stops: a finished complete no longer touches the session.
    const after = (await readUpdatedAt()).getTime();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await readUpdatedAt()).getTime()).toBe(after);
  });

  it("400 for a body without session_id; 401 without a key", async () => {
    const res = await completeRaw(t, undefined);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: "session_id: Invalid input: expected string, received undefined",
    });
    const anonymous = await completeRaw(t, "01a20166-be89-7502-952f-aeec61debab3", null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual(UNAUTHORIZED);
  });

  it("400 Session expired after ttl_seconds, for parts and for complete", async () => {
    const data = testBytes(10);
    // 2 s, not 1: expires_at is whole seconds, so a 1 s session can be over before its part is
    // sent (it failed that way on a loaded machine).
    const session = await start(t, { file_name: "expiring.bin", size: 10, ttl_seconds: 2 });
    await uploadAll(t, session, data);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, session.expires_at * 1000 - Date.now()) + 50),
    );
    const res = await completeRaw(t, session.session_id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: "Session expired" });
    const part = await putPart(t, session.parts[0] as string, data);
    expect(part.json()).toEqual({ success: false, error: "Part URL expired" });
  });
});

describe("sweeper", () => {
  it("expires sessions past expires_at, removes their stored parts, and leaves live ones", async () => {
    const data = testBytes(5 * MiB + 5);
    const doomed = await start(t, { file_name: "doomed.bin", size: data.length, ttl_seconds: 60 });
    await uploadAll(t, doomed, data, [0]);
    const live = await start(t, { file_name: "live.bin", size: data.length, ttl_seconds: 86_400 });
    await uploadAll(t, live, data, [0]);
    const rows = await t.app.db.multipartSession.findMany({
      where: { id: { in: [doomed.session_id, live.session_id] } },
    });
    const uploadIdOf = (id: string) => rows.find((r) => r.id === id)?.storageUploadId as string;
    expect(await pendingUploads(t.storageDir)).toEqual(
      expect.arrayContaining([uploadIdOf(doomed.session_id), uploadIdOf(live.session_id)]),
    );

    // Two sweeps at once (two instances): each session is handled once.
    const later = new Date(Date.now() + 120_000);
    const [first, second] = await Promise.all([
      sweepExpiredSessions(t.app.multipartDeps, later),
      sweepExpiredSessions(t.app.multipartDeps, later),
    ]);
    expect(first.expired + second.expired).toBeGreaterThanOrEqual(1);
    const swept = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: doomed.session_id } });
    expect(swept.status).toBe("expired");
    expect(await t.app.db.multipartPart.count({ where: { sessionId: doomed.session_id } })).toBe(0);
    const remaining = await pendingUploads(t.storageDir);
    expect(remaining).not.toContain(uploadIdOf(doomed.session_id));
    expect(remaining).toContain(uploadIdOf(live.session_id));

    const res = await completeRaw(t, doomed.session_id);
    expect(res.json()).toEqual({ success: false, error: "Session expired" });
    await uploadAll(t, live, data, [1]);
    expect((await completeRaw(t, live.session_id)).statusCode).toBe(200);
  });

  it("removes fs uploads that have no session (a crash between begin and the insert)", async () => {
    const { store } = t.app.multipartDeps;
    const { uploadId } = await store.begin({
      key: `${t.workspace.id}/orphan/orphan.bin`,
      size: 10,
      partSize: 5 * MiB,
      partCount: 1,
    });
    expect(await pendingUploads(t.storageDir)).toContain(uploadId);
    // Younger than the grace period: kept (its session may be being inserted right now).
    await sweepExpiredSessions(t.app.multipartDeps, new Date());
    expect(await pendingUploads(t.storageDir)).toContain(uploadId);
    const result = await sweepExpiredSessions(t.app.multipartDeps, new Date(Date.now() + 60 * 60_000));
    expect(result.orphans).toBeGreaterThanOrEqual(1);
    expect(await pendingUploads(t.storageDir)).not.toContain(uploadId);
  });

  it("runs on its own in a server with workers: an expired session is released without anyone asking", async () => {
    const swept = await createTestApp({ config: { workers: true, multipart: { sweepIntervalMs: 1000 } } });
    try {
      const session = await start(swept, { file_name: "timer.bin", size: 10, ttl_seconds: 1 });
      await swept.app.db.multipartSession.update({
        where: { id: session.session_id },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      const deadline = Date.now() + 15_000;
      let status = "pending";
      while (status !== "expired" && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        const row = await swept.app.db.multipartSession.findUniqueOrThrow({
          where: { id: session.session_id },
        });
        status = row.status;
      }
      expect(status).toBe("expired");
    } finally {
      await swept.close();
    }
  });
});
