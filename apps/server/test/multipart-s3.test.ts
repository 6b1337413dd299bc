// Multipart uploads on the s3 driver, against s3rver in a child process (test/support/s3rver.ts,
// patched with ListParts and AbortMultipartUpload): gateway mode (parts stream through Trove into
// S3 UploadPart) and direct mode (presigned UploadPart URLs, complete lists the parts). s3rver
// pages ListParts by 2 here, so complete has to follow the pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashStream } from "../src/content-hash/index.js";
import { sweepExpiredSessions } from "../src/multipart/index.js";
import { UploadNotFoundError } from "../src/storage/multipart/index.js";
import { S3StorageDriver } from "../src/storage/s3-driver.js";
import {
  abandonRaw,
  complete,
  completeRaw,
  deliveredSha256,
  fetchPut,
  MiB,
  putPart,
  sha256,
  start,
  testBytes,
  uploadAll,
} from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { type S3rverHandle, startS3rver } from "./support/s3rver.js";

let s3: S3rverHandle;

/** The storage upload behind a session. */
async function uploadRefOf(t: TestApp, sessionId: string) {
  const row = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: sessionId } });
  return { key: row.storageKey as string, uploadId: row.storageUploadId as string };
}
const drivers: S3StorageDriver[] = [];

function newDriver(): S3StorageDriver {
  const driver = new S3StorageDriver(s3.driverConfig());
  drivers.push(driver);
  return driver;
}

beforeAll(async () => {
  s3 = await startS3rver({ maxPartsPerPage: 2 });
});
afterAll(async () => {
  for (const driver of drivers) driver.close();
  await s3?.stop();
});

describe("gateway mode on s3", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ storage: newDriver() });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("streams parts into S3 and completes there; the file reads back byte-exact", async () => {
    const data = testBytes(2 * 5 * MiB + 4242, 31);
    const session = await start(t, { file_name: "s3-gateway.bin", size: data.length });
    expect(session.parts[0]).toMatch(/\/api\/v1\/multipart\/parts\//);
    await uploadAll(t, session, data, [2, 0, 1]);
    const done = await complete(t, session.session_id);
    expect(done.file_size).toBe(data.length);
    expect(await deliveredSha256(t, done.url)).toBe(sha256(data));
    const file = await t.app.db.file.findUniqueOrThrow({ where: { id: done.id } });
    expect(file.hash).toBe((await hashStream([data])).hash);
    expect((await complete(t, session.session_id)).file_no).toBe(done.file_no);
  });

  it("refuses a part of the wrong size and reports it missing; a part uploaded again replaces it", async () => {
    const data = testBytes(5 * MiB + 9, 32);
    const session = await start(t, { file_name: "s3-sizes.bin", size: data.length });
    const wrong = await putPart(t, session.parts[1] as string, testBytes(8));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ success: false, error: "Part 2 must be 9 bytes, Content-Length is 8" });
    expect((await putPart(t, session.parts[0] as string, testBytes(5 * MiB, 99))).statusCode).toBe(200);
    const missing = await completeRaw(t, session.session_id);
    expect(missing.json()).toEqual({ success: false, error: "Missing parts: 2" });
    await uploadAll(t, session, data);
    const done = await complete(t, session.session_id);
    expect(await deliveredSha256(t, done.url)).toBe(sha256(data));
  });

  it("the sweeper aborts the S3 upload of an expired session", async () => {
    const data = testBytes(5 * MiB + 1, 33);
    const session = await start(t, { file_name: "s3-expired.bin", size: data.length, ttl_seconds: 30 });
    await uploadAll(t, session, data, [0]);
    const row = await t.app.db.multipartSession.findUniqueOrThrow({ where: { id: session.session_id } });
    const ref = { key: row.storageKey as string, uploadId: row.storageUploadId as string };
    const { store } = t.app.multipartDeps;
    expect(await store.listParts?.(ref)).toHaveLength(1);

    const result = await sweepExpiredSessions(t.app.multipartDeps, new Date(Date.now() + 60_000));
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(result.failed).toBe(0);
    await expect(store.listParts?.(ref)).rejects.toBeInstanceOf(UploadNotFoundError);
    expect((await completeRaw(t, session.session_id)).json()).toEqual({
      success: false,
      error: "Session expired",
    });
  });

  it("DELETE aborts the S3 upload of an abandoned session", async () => {
    const data = testBytes(5 * MiB + 1, 34);
    const session = await start(t, { file_name: "s3-abandoned.bin", size: data.length });
    await uploadAll(t, session, data, [0]);
    const ref = await uploadRefOf(t, session.session_id);
    const { store } = t.app.multipartDeps;
    expect(await store.listParts?.(ref)).toHaveLength(1);
    expect((await abandonRaw(t, session.session_id)).json()).toEqual({ success: true });
    await expect(store.listParts?.(ref)).rejects.toBeInstanceOf(UploadNotFoundError);
  });
});

describe("direct mode on s3 (presigned UploadPart URLs)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ storage: newDriver(), config: { multipart: { mode: "direct" } } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function putAll(urls: string[], data: Uint8Array, partSize: number, order?: number[]): Promise<void> {
    for (const i of order ?? urls.map((_, n) => n)) {
      const res = await fetch(urls[i] as string, {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: data.subarray(i * partSize, (i + 1) * partSize),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(res.headers.get("etag")).toBeTruthy();
      await res.arrayBuffer();
    }
  }

  it("hands out presigned S3 URLs; complete lists every page of parts and assembles", async () => {
    const data = testBytes(4 * 5 * MiB + 321, 41);
    const session = await start(t, { file_name: "direct.bin", size: data.length });
    expect(session.parts).toHaveLength(5);
    for (const [i, url] of session.parts.entries()) {
      expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
      const query = new URL(url).searchParams;
      expect(query.get("partNumber")).toBe(String(i + 1));
      expect(query.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
      expect(url).not.toContain(t.keys.private);
    }
    await putAll(session.parts, data, session.part_size, [4, 2, 0, 3, 1]);
    const done = await complete(t, session.session_id);
    expect(done.file_size).toBe(data.length);
    expect(await deliveredSha256(t, done.url)).toBe(sha256(data));
    const file = await t.app.db.file.findUniqueOrThrow({ where: { id: done.id } });
    expect(file.hash).toBe((await hashStream([data])).hash);
    expect((await complete(t, session.session_id)).id).toBe(done.id);
  });

  it("400 naming missing parts and wrong sizes; the session stays open", async () => {
    const data = testBytes(2 * 5 * MiB + 5, 42);
    const session = await start(t, { file_name: "direct-gaps.bin", size: data.length });
    await putAll(session.parts, data, session.part_size, [0]);
    const missing = await completeRaw(t, session.session_id);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ success: false, error: "Missing parts: 2, 3" });

    // Storage accepts a short middle part; complete refuses it by the plan.
    const short = await fetch(session.parts[1] as string, {
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body: testBytes(100),
    });
    expect(short.status).toBe(200);
    await short.arrayBuffer();
    await putAll(session.parts, data, session.part_size, [2]);
    const wrongSize = await completeRaw(t, session.session_id);
    expect(wrongSize.json()).toEqual({ success: false, error: `Part 2 must be ${5 * MiB} bytes, not 100` });

    await putAll(session.parts, data, session.part_size, [1]);
    const done = await complete(t, session.session_id);
    expect(await deliveredSha256(t, done.url)).toBe(sha256(data));
  });

  it("DELETE aborts the S3 multipart upload: parts already at their presigned URLs are gone", async () => {
    const data = testBytes(5 * MiB + 2, 44);
    const session = await start(t, { file_name: "direct-abandoned.bin", size: data.length });
    await putAll(session.parts, data, session.part_size, [0, 1]);
    const ref = await uploadRefOf(t, session.session_id);
    const { store } = t.app.multipartDeps;
    expect(await store.listParts?.(ref)).toHaveLength(2);
    expect((await abandonRaw(t, session.session_id)).statusCode).toBe(200);
    await expect(store.listParts?.(ref)).rejects.toBeInstanceOf(UploadNotFoundError);
    expect((await completeRaw(t, session.session_id)).json()).toEqual({
      success: false,
      error: "Session aborted",
    });
  });

  it("the part gateway refuses direct-mode sessions", async () => {
    const session = await start(t, { file_name: "direct-gateway.bin", size: 10 });
    const url = t.app.multipartDeps.signer.url(session.session_id, 1, session.expires_at);
    const res = await putPart(t, url, testBytes(10));
    expect(res.json()).toEqual({
      success: false,
      error: "This session takes its parts at presigned storage URLs",
    });
    // Not a gateway URL at all: storage answers itself.
    const direct = await fetchPut(
      new URL(session.parts[0] as string).origin,
      session.parts[0] as string,
      testBytes(10),
    );
    expect(direct.status).toBe(200);
    await direct.arrayBuffer();
  });
});

describe("storage from the configuration", () => {
  it("TROVE_STORAGE=s3 (config.storageKind) gives the app an s3 driver that multipart uses", async () => {
    const t = await createTestApp({ config: { storageKind: "s3", s3: s3.driverConfig() } });
    try {
      expect(t.app.storage).toBeInstanceOf(S3StorageDriver);
      const data = testBytes(1000, 43);
      const session = await start(t, { file_name: "configured.bin", size: data.length });
      await uploadAll(t, session, data);
      const done = await complete(t, session.session_id);
      expect(await deliveredSha256(t, done.url)).toBe(sha256(data));
    } finally {
      await t.close();
    }
  });

  it("refuses to build an app with direct mode on fs", async () => {
    await expect(createTestApp({ config: { multipart: { mode: "direct" } } })).rejects.toThrow(
      /Multipart mode "direct" needs the s3 storage driver/,
    );
  });
});
