/**
 * The s3 driver and multipart layer against a real MinIO (or any S3) when one is reachable:
 *   MINIO_ENDPOINT=http://127.0.0.1:9000 MINIO_ACCESS_KEY=... MINIO_SECRET_KEY=...
 *   MINIO_BUCKET=trove-test (created when missing) [MINIO_REGION=us-east-1]
 * s3rver is not S3: it skips SigV4 verification and accepts parts under 5 MiB. This suite checks
 * what only a real store can.
 */
import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { combinePartBlockDigests, hashStream } from "../content-hash/index.js";
import { SizeMismatchError } from "./driver.js";
import { InvalidPartError, UploadNotFoundError } from "./multipart/index.js";
import { parseS3Endpoint, type S3StorageConfig, S3StorageDriver } from "./s3-driver.js";

const MiB = 1024 * 1024;
const PART = 5 * MiB;
const endpoint = process.env.MINIO_ENDPOINT;
const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

function body(data: Buffer, chunkSize = 256 * 1024): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += chunkSize) chunks.push(data.subarray(i, i + chunkSize));
  return Readable.from(chunks);
}

describe.runIf(endpoint)("S3 storage on a real MinIO", () => {
  let driver: S3StorageDriver;
  let config: S3StorageConfig;
  const prefix = `trove-test-${Date.now()}-${randomBytes(3).toString("hex")}/`;

  beforeAll(async () => {
    const parsed = parseS3Endpoint(endpoint!);
    config = {
      ...parsed,
      region: process.env.MINIO_REGION ?? "us-east-1",
      bucket: process.env.MINIO_BUCKET ?? "trove-test",
      accessKey: process.env.MINIO_ACCESS_KEY ?? "minioadmin",
      secretKey: process.env.MINIO_SECRET_KEY ?? "minioadmin",
      pathStyle: true,
      putPartSize: 5 * MiB,
    };
    driver = new S3StorageDriver(config);
    await driver.ensureBucket({ create: true });
  });
  afterAll(async () => {
    if (!driver) return;
    for await (const item of driver.list(prefix)) await driver.delete(item.key);
    driver.close();
  });

  it("puts (single and multipart), reads ranges, lists and deletes", async () => {
    const small = randomBytes(1000);
    const large = randomBytes(12 * MiB + 5);
    expect((await driver.put(`${prefix}a/small.bin`, body(small))).size).toBe(small.length);
    expect(sha256(await buffer(await driver.get(`${prefix}a/small.bin`)))).toBe(sha256(small));
    expect((await driver.put(`${prefix}a/large.bin`, body(large), { expectedSize: large.length })).size).toBe(
      large.length,
    );
    expect(sha256(await buffer(await driver.get(`${prefix}a/large.bin`)))).toBe(sha256(large));
    const range = await buffer(
      await driver.get(`${prefix}a/large.bin`, { range: { start: 5 * MiB - 2, end: 5 * MiB + 1 } }),
    );
    expect(range.equals(large.subarray(5 * MiB - 2, 5 * MiB + 2))).toBe(true);
    const keys: string[] = [];
    for await (const item of driver.list(`${prefix}a/`)) keys.push(item.key);
    expect(keys.sort()).toEqual([`${prefix}a/large.bin`, `${prefix}a/small.bin`]);
    await driver.delete(`${prefix}a/small.bin`);
    expect(await driver.exists(`${prefix}a/small.bin`)).toBe(false);
    await expect(
      driver.put(`${prefix}a/bad.bin`, body(randomBytes(11 * MiB)), { expectedSize: 11 * MiB + 1 }),
    ).rejects.toBeInstanceOf(SizeMismatchError);
    expect(await driver.exists(`${prefix}a/bad.bin`)).toBe(false);
  });

  it("gateway-mode parts: out of order, replaced, wrong size; complete; abort", async () => {
    const store = driver.multipart;
    const key = `${prefix}mp/gateway.bin`;
    const size = 2 * PART + 3;
    const data = randomBytes(size);
    const { uploadId } = await store.begin({ key, size, partSize: PART, partCount: 3 });
    const put = (n: number, bytes = data.subarray((n - 1) * PART, n * PART), expectedSize = bytes.length) =>
      store.putPart({ key, uploadId, partNumber: n, partSize: PART, body: body(bytes), expectedSize });
    const p3 = await put(3);
    await put(1, randomBytes(PART));
    const p1 = await put(1);
    await expect(put(2, randomBytes(PART - 1), PART)).rejects.toBeInstanceOf(SizeMismatchError);
    const p2 = await put(2);
    const listed = await store.listParts({ key, uploadId });
    expect(listed.map((p) => [p.number, p.size, p.etag])).toEqual(
      [p1, p2, p3].map((p) => [p.partNumber, p.size, p.etag]),
    );
    await store.complete({ key, uploadId, parts: listed });
    expect(sha256(await buffer(await driver.get(key)))).toBe(sha256(data));
    expect(
      combinePartBlockDigests(
        [p1, p2, p3].map((p) => ({ number: p.partNumber, blockDigests: p.blockDigests })),
      ),
    ).toBe((await hashStream([data])).hash);

    const other = await store.begin({ key: `${prefix}mp/aborted.bin`, size, partSize: PART, partCount: 3 });
    await store.abort({ key: `${prefix}mp/aborted.bin`, uploadId: other.uploadId });
    await expect(
      store.listParts({ key: `${prefix}mp/aborted.bin`, uploadId: other.uploadId }),
    ).rejects.toBeInstanceOf(UploadNotFoundError);
  });

  it("S3 refuses non-final parts under 5 MiB at complete", async () => {
    // A store configured (wrongly) to allow 1 MiB parts: S3 itself must refuse the result.
    const lax = new S3StorageDriver({ ...config, minPartSize: MiB });
    try {
      const store = lax.multipart;
      const key = `${prefix}mp/small-parts.bin`;
      const { uploadId } = await store.begin({ key, size: MiB + 1, partSize: MiB, partCount: 2 });
      const parts = [];
      for (const [n, size] of [
        [1, MiB],
        [2, 1],
      ] as const) {
        const part = await store.putPart({
          key,
          uploadId,
          partNumber: n,
          partSize: MiB,
          body: body(randomBytes(size)),
          expectedSize: size,
        });
        parts.push({ number: n, etag: part.etag, size });
      }
      await expect(store.complete({ key, uploadId, parts })).rejects.toBeInstanceOf(InvalidPartError);
      await store.abort({ key, uploadId });
    } finally {
      lax.close();
    }
  });

  it("direct mode: presigned PUTs with fetch, signed for the host the client uses", async () => {
    const store = driver.multipart;
    const key = `${prefix}mp/direct.bin`;
    const size = PART + 10;
    const data = randomBytes(size);
    const { uploadId } = await store.begin({ key, size, partSize: PART, partCount: 2 });
    for (const n of [1, 2]) {
      const url = await store.presignPart({ key, uploadId, partNumber: n, expiresInSeconds: 300 });
      const response = await fetch(url, { method: "PUT", body: data.subarray((n - 1) * PART, n * PART) });
      expect(response.status).toBe(200);
    }
    // The signature covers Host: the same URL under another name for the same server fails.
    const url = new URL(await store.presignPart({ key, uploadId, partNumber: 1, expiresInSeconds: 300 }));
    const alias =
      url.hostname === "localhost" ? "127.0.0.1" : url.hostname === "127.0.0.1" ? "localhost" : null;
    if (alias) {
      url.hostname = alias;
      expect((await fetch(url, { method: "PUT", body: data.subarray(0, PART) })).status).toBe(403);
    }
    const parts = await store.listParts({ key, uploadId });
    expect(parts.map((p) => p.size)).toEqual([PART, 10]);
    await store.complete({ key, uploadId, parts });
    expect(sha256(await buffer(await driver.get(key)))).toBe(sha256(data));
  });
});
