/**
 * The multipart layer on both stores: fs (a temp directory) and s3 (s3rver in a child process,
 * patched with ListParts/AbortMultipartUpload; see patches/s3rver.patch).
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3rverHandle, startS3rver } from "../../../test/support/s3rver.js";
import { combinePartBlockDigests, hashStream } from "../../content-hash/index.js";
import { InvalidObjectKeyError, SizeMismatchError, type StorageDriver } from "../driver.js";
import { FsStorageDriver } from "../fs-driver.js";
import { S3StorageDriver } from "../s3-driver.js";
import {
  FS_MULTIPART_DIR,
  InvalidPartError,
  InvalidUploadPlanError,
  type MultipartStore,
  multipartStoreFor,
  plannedPartSize,
  type StoredPart,
  UploadNotFoundError,
} from "./index.js";

const MiB = 1024 * 1024;
const PART = 5 * MiB;
const SIZE = 2 * PART + 1234; // three parts: 5 MiB, 5 MiB, 1234 B

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

function body(data: Buffer, chunkSize = 256 * 1024 + 3): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += chunkSize) chunks.push(data.subarray(i, i + chunkSize));
  return Readable.from(chunks);
}

function partOf(data: Buffer, n: number): Buffer {
  return data.subarray((n - 1) * PART, n * PART);
}

interface Harness {
  driver: StorageDriver;
  store: MultipartStore;
  /** True when nothing of the upload is left in storage. */
  uploadGone(uploadId: string): Promise<boolean>;
}

function multipartSuite(
  name: string,
  setup: () => Promise<{ harness: Harness; teardown: () => Promise<void> }>,
) {
  describe(`multipart on ${name}`, () => {
    let h: Harness;
    let teardown: () => Promise<void>;
    let seq = 0;
    const newKey = () => `ws1/file${++seq}/data.bin`;

    beforeAll(async () => {
      ({ harness: h, teardown } = await setup());
    });
    afterAll(async () => {
      await teardown?.();
    });

    async function upload(key: string, uploadId: string, data: Buffer, n: number): Promise<StoredPart> {
      const part = partOf(data, n);
      return h.store.putPart({
        key,
        uploadId,
        partNumber: n,
        partSize: PART,
        body: body(part),
        expectedSize: part.length,
      });
    }

    const begin = (key: string, size = SIZE) =>
      h.store.begin({
        key,
        size,
        partSize: PART,
        partCount: Math.ceil(size / PART),
        contentType: "video/mp4",
      });

    it("assembles parts uploaded out of order into byte-exact content", async () => {
      const key = newKey();
      const data = randomBytes(SIZE);
      const { uploadId } = await begin(key);
      const parts = [await upload(key, uploadId, data, 3), await upload(key, uploadId, data, 1)];
      parts.push(await upload(key, uploadId, data, 2));

      for (const part of parts) {
        const bytes = partOf(data, part.partNumber);
        expect(part.size).toBe(bytes.length);
        // One hash pass per byte: the part hash is the content hash of the part's bytes.
        expect(part.partHash).toBe((await hashStream([bytes])).hash);
        if (h.store.kind === "fs") expect(part.etag).toBe(part.partHash);
        expect(part.blockDigests).toHaveLength(Math.ceil(bytes.length / MiB));
      }
      const { size } = await h.store.complete({
        key,
        uploadId,
        parts: parts.map((p) => ({ number: p.partNumber, etag: p.etag, size: p.size })),
      });
      expect(size).toBe(SIZE);
      const stored = await buffer(await h.driver.get(key));
      expect(stored.length).toBe(SIZE);
      expect(sha256(stored)).toBe(sha256(data));
      expect((await h.driver.stat(key))?.size).toBe(SIZE);
      // The content hash from the parts equals the direct-upload hash of the same bytes.
      expect(
        combinePartBlockDigests(parts.map((p) => ({ number: p.partNumber, blockDigests: p.blockDigests }))),
      ).toBe((await hashStream(body(data))).hash);
      expect(await h.uploadGone(uploadId)).toBe(true);
    });

    it("handles a single-part upload smaller than a block", async () => {
      const key = newKey();
      const data = randomBytes(10);
      const { uploadId } = await h.store.begin({ key, size: 10, partSize: PART, partCount: 1 });
      const part = await h.store.putPart({
        key,
        uploadId,
        partNumber: 1,
        partSize: PART,
        body: body(data),
        expectedSize: 10,
      });
      await h.store.complete({ key, uploadId, parts: [{ number: 1, etag: part.etag, size: 10 }] });
      expect((await buffer(await h.driver.get(key))).equals(data)).toBe(true);
    });

    it("replaces a part that is uploaded again", async () => {
      const key = newKey();
      const data = randomBytes(SIZE);
      const { uploadId } = await begin(key);
      const first = await upload(key, uploadId, data, 1);
      const wrong = randomBytes(PART);
      const stale = await h.store.putPart({
        key,
        uploadId,
        partNumber: 2,
        partSize: PART,
        body: body(wrong),
        expectedSize: PART,
      });
      const second = await upload(key, uploadId, data, 2);
      expect(second.etag).not.toBe(stale.etag);
      const third = await upload(key, uploadId, data, 3);
      // The replaced upload's ETag no longer completes the upload...
      await expect(
        h.store.complete({
          key,
          uploadId,
          parts: [first, stale, third].map((p) => ({ number: p.partNumber, etag: p.etag, size: p.size })),
        }),
      ).rejects.toBeInstanceOf(InvalidPartError);
      // ...the newest one does.
      await h.store.complete({
        key,
        uploadId,
        parts: [first, second, third].map((p) => ({ number: p.partNumber, etag: p.etag, size: p.size })),
      });
      expect(sha256(await buffer(await h.driver.get(key)))).toBe(sha256(data));
    });

    it("rejects a part of the wrong size and keeps nothing usable of it", async () => {
      const key = newKey();
      const data = randomBytes(SIZE);
      const { uploadId } = await begin(key);
      const first = await upload(key, uploadId, data, 1);
      const part2 = partOf(data, 2);
      const put2 = (bytes: Buffer) =>
        h.store.putPart({
          key,
          uploadId,
          partNumber: 2,
          partSize: PART,
          body: body(bytes),
          expectedSize: PART,
        });
      // Too short, and too long (the extra bytes arrive in a separate chunk after a full part).
      await expect(put2(part2.subarray(0, PART - 1))).rejects.toBeInstanceOf(SizeMismatchError);
      await expect(
        h.store.putPart({
          key,
          uploadId,
          partNumber: 2,
          partSize: PART,
          body: Readable.from([part2, Buffer.from("x")]),
          expectedSize: PART,
        }),
      ).rejects.toBeInstanceOf(SizeMismatchError);
      if (h.store.listParts) {
        expect((await h.store.listParts({ key, uploadId })).map((p) => p.number)).toEqual([1]);
      }
      // An expectedSize outside the plan is refused before any byte is read.
      await expect(
        h.store.putPart({
          key,
          uploadId,
          partNumber: 2,
          partSize: PART,
          body: body(part2),
          expectedSize: PART + 1,
        }),
      ).rejects.toBeInstanceOf(InvalidPartError);

      const second = await upload(key, uploadId, data, 2);
      const third = await upload(key, uploadId, data, 3);
      await h.store.complete({
        key,
        uploadId,
        parts: [first, second, third].map((p) => ({ number: p.partNumber, etag: p.etag, size: p.size })),
      });
      expect(sha256(await buffer(await h.driver.get(key)))).toBe(sha256(data));
    });

    it("leaves the body to the caller on failure, and fails when the body breaks off", async () => {
      const key = newKey();
      const { uploadId } = await begin(key);
      const tooLong = new PassThrough();
      const rejected = h.store.putPart({
        key,
        uploadId,
        partNumber: 1,
        partSize: PART,
        body: tooLong,
        expectedSize: PART,
      });
      tooLong.write(randomBytes(PART));
      tooLong.write(Buffer.from("extra"));
      await expect(rejected).rejects.toBeInstanceOf(SizeMismatchError);
      // Not destroyed: the route can still answer on the request's socket.
      expect(tooLong.destroyed).toBe(false);

      const broken = new PassThrough();
      const failed = h.store.putPart({
        key,
        uploadId,
        partNumber: 1,
        partSize: PART,
        body: broken,
        expectedSize: PART,
      });
      broken.write(randomBytes(MiB));
      // As a request stream does: Node's IncomingMessage emits an error only to listeners, so a
      // reset that comes while the store is still before its read (a loaded machine) is no crash.
      broken.on("error", () => {});
      setTimeout(() => broken.destroy(new Error("connection reset")), 20);
      await expect(failed).rejects.toThrow();
      if (h.store.listParts) expect(await h.store.listParts({ key, uploadId })).toEqual([]);
      await h.store.abort({ key, uploadId });
    });

    it("refuses to complete with a part missing or never uploaded", async () => {
      const key = newKey();
      const data = randomBytes(SIZE);
      const { uploadId } = await begin(key);
      const first = await upload(key, uploadId, data, 1);
      const third = await upload(key, uploadId, data, 3);
      const listed = [first, third].map((p) => ({ number: p.partNumber, etag: p.etag, size: p.size }));
      await expect(h.store.complete({ key, uploadId, parts: listed })).rejects.toBeInstanceOf(
        InvalidPartError,
      );
      await expect(
        h.store.complete({ key, uploadId, parts: [...listed, { number: 2, etag: first.etag, size: PART }] }),
      ).rejects.toBeInstanceOf(InvalidPartError);
      expect(await h.driver.exists(key)).toBe(false);
      await h.store.abort({ key, uploadId });
    });

    it("abort removes the upload and its parts", async () => {
      const key = newKey();
      const data = randomBytes(SIZE);
      const { uploadId } = await begin(key);
      const first = await upload(key, uploadId, data, 1);
      expect(await h.uploadGone(uploadId)).toBe(false);
      await h.store.abort({ key, uploadId });
      expect(await h.uploadGone(uploadId)).toBe(true);
      await h.store.abort({ key, uploadId }); // idempotent
      await expect(upload(key, uploadId, data, 2)).rejects.toBeInstanceOf(UploadNotFoundError);
      await expect(
        h.store.complete({ key, uploadId, parts: [{ number: 1, etag: first.etag, size: PART }] }),
      ).rejects.toBeInstanceOf(UploadNotFoundError);
      expect(await h.driver.exists(key)).toBe(false);
    });

    it("validates keys, plans, part numbers and upload ids", async () => {
      await expect(begin("ws1/../escape")).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(
        h.store.begin({ key: newKey(), size: SIZE, partSize: PART, partCount: 2 }),
      ).rejects.toBeInstanceOf(InvalidUploadPlanError);
      await expect(
        h.store.begin({ key: newKey(), size: SIZE, partSize: PART + 1, partCount: 3 }),
      ).rejects.toBeInstanceOf(InvalidUploadPlanError);
      const key = newKey();
      const { uploadId } = await begin(key);
      const bytes = randomBytes(PART);
      for (const partNumber of [0, 4.5, 10_001]) {
        await expect(
          h.store.putPart({
            key,
            uploadId,
            partNumber,
            partSize: PART,
            body: body(bytes),
            expectedSize: PART,
          }),
        ).rejects.toBeInstanceOf(InvalidPartError);
      }
      await expect(
        h.store.putPart({
          key: "ws1/other/key.bin",
          uploadId,
          partNumber: 1,
          partSize: PART,
          body: body(bytes),
          expectedSize: PART,
        }),
      ).rejects.toBeInstanceOf(UploadNotFoundError);
      await expect(
        h.store.putPart({
          key,
          uploadId: "../../etc",
          partNumber: 1,
          partSize: PART,
          body: body(bytes),
          expectedSize: PART,
        }),
      ).rejects.toBeInstanceOf(UploadNotFoundError);
      await h.store.abort({ key, uploadId });
    });

    it("plans parts with plannedPartSize that match what putPart expects", async () => {
      const key = newKey();
      const size = PART + 1;
      const data = randomBytes(size);
      const { uploadId } = await h.store.begin({ key, size, partSize: PART, partCount: 2 });
      const parts: StoredPart[] = [];
      for (const n of [2, 1]) {
        const expectedSize = plannedPartSize(size, PART, n);
        parts.push(
          await h.store.putPart({
            key,
            uploadId,
            partNumber: n,
            partSize: PART,
            body: body(partOf(data, n)),
            expectedSize,
          }),
        );
      }
      await h.store.complete({
        key,
        uploadId,
        parts: parts.map((p) => ({ number: p.partNumber, etag: p.etag, size: p.size })),
      });
      expect((await buffer(await h.driver.get(key))).equals(data)).toBe(true);
    });
  });
}

multipartSuite("fs", async () => {
  const root = await mkdtemp(join(tmpdir(), "trove-fs-multipart-"));
  const driver = new FsStorageDriver(root);
  const harness: Harness = {
    driver,
    store: multipartStoreFor(driver),
    uploadGone: async (uploadId) => !(await readdir(join(root, FS_MULTIPART_DIR))).includes(uploadId),
  };
  return { harness, teardown: () => rm(root, { recursive: true, force: true }) };
});

describe("fs multipart housekeeping", () => {
  it("lists pending uploads (for sweeping) until they complete or abort", async () => {
    const root = await mkdtemp(join(tmpdir(), "trove-fs-pending-"));
    try {
      const store = multipartStoreFor(new FsStorageDriver(root));
      const pending = async () => {
        const found: string[] = [];
        for await (const upload of store.listPending!())
          found.push(`${upload.uploadId}:${upload.key}:${upload.size}`);
        return found.sort();
      };
      expect(await pending()).toEqual([]);
      const a = await store.begin({ key: "ws1/a/x.bin", size: 10, partSize: PART, partCount: 1 });
      const b = await store.begin({ key: "ws1/b/y.bin", size: 20, partSize: PART, partCount: 1 });
      expect(await pending()).toEqual(
        [`${a.uploadId}:ws1/a/x.bin:10`, `${b.uploadId}:ws1/b/y.bin:20`].sort(),
      );
      // Aborting under another key is refused; the right key removes it.
      await expect(store.abort({ key: "ws1/b/y.bin", uploadId: a.uploadId })).rejects.toBeInstanceOf(
        UploadNotFoundError,
      );
      await store.abort({ key: "ws1/a/x.bin", uploadId: a.uploadId });
      expect(await pending()).toEqual([`${b.uploadId}:ws1/b/y.bin:20`]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
  it("dates an upload without meta.json by its directory, so one being created is not swept as old", async () => {
    const root = await mkdtemp(join(tmpdir(), "trove-fs-pending-"));
    try {
      const store = multipartStoreFor(new FsStorageDriver(root));
      // What the sweep sees between begin()'s mkdir and its meta.json write.
      const creating = "a".repeat(32);
      const abandoned = "b".repeat(32);
      await mkdir(join(root, FS_MULTIPART_DIR, creating, "parts"), { recursive: true });
      await mkdir(join(root, FS_MULTIPART_DIR, abandoned, "parts"), { recursive: true });
      const hourAgo = new Date(Date.now() - 3_600_000);
      await utimes(join(root, FS_MULTIPART_DIR, abandoned), hourAgo, hourAgo);
      const ages = new Map<string, number>();
      for await (const upload of store.listPending!()) ages.set(upload.uploadId, upload.createdAt.getTime());
      expect(ages.get(creating)).toBeGreaterThan(Date.now() - 60_000);
      expect(Math.abs((ages.get(abandoned) ?? 0) - hourAgo.getTime())).toBeLessThan(1000);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("fs multipart with the parts it plans", () => {
  it("plans about 32 parts of up to 32 MiB; the s3 store keeps choosePartSize", () => {
    const fs = multipartStoreFor(new FsStorageDriver(tmpdir()));
    expect(fs.planParts?.(1024 * MiB)).toEqual({ partSize: 32 * MiB, partCount: 32 });
    expect(fs.planParts?.(3 * MiB)).toEqual({ partSize: 5 * MiB, partCount: 1 });
    // Never contacted: only the store's plan is read.
    const s3 = new S3StorageDriver({
      endPoint: "127.0.0.1",
      port: 9,
      useSSL: false,
      region: "us-east-1",
      bucket: "b",
      accessKey: "k",
      secretKey: "s",
    });
    try {
      expect(multipartStoreFor(s3).planParts).toBeUndefined();
    } finally {
      s3.close();
    }
  });

  it("parts of another size, out of order, one refused and sent again, a short last part: same bytes, same hash", async () => {
    const root = await mkdtemp(join(tmpdir(), "trove-fs-planned-"));
    try {
      const driver = new FsStorageDriver(root);
      const store = multipartStoreFor(driver);
      const partSize = 6 * MiB;
      const data = randomBytes(2 * partSize + MiB + 5); // 6 MiB, 6 MiB, 1 MiB + 5 B
      const key = "ws1/planned/data.bin";
      const { uploadId } = await store.begin({ key, size: data.length, partSize, partCount: 3 });
      const slice = (n: number) => data.subarray((n - 1) * partSize, n * partSize);
      const put = (n: number, bytes: Buffer) =>
        store.putPart({
          key,
          uploadId,
          partNumber: n,
          partSize,
          body: body(bytes),
          expectedSize: plannedPartSize(data.length, partSize, n),
        });
      const parts = new Map<number, StoredPart>();
      for (const n of [3, 1]) parts.set(n, await put(n, slice(n)));
      // A retry of part 2 that is one byte short is refused; the full one takes its place.
      await expect(put(2, slice(2).subarray(1))).rejects.toBeInstanceOf(SizeMismatchError);
      parts.set(2, await put(2, slice(2)));
      expect(parts.get(3)?.size).toBe(MiB + 5);

      const listed = [...parts.values()].map((p) => ({ number: p.partNumber, etag: p.etag, size: p.size }));
      expect(await store.complete({ key, uploadId, parts: listed })).toEqual({ size: data.length });
      const stored = await buffer(await driver.get(key));
      expect(sha256(stored)).toBe(sha256(data));
      const combined = combinePartBlockDigests(
        [...parts.values()].map((p) => ({ number: p.partNumber, blockDigests: p.blockDigests })),
      );
      expect(combined).toBe((await hashStream([data])).hash);
      expect(await readdir(join(root, FS_MULTIPART_DIR))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

/** s3rver keeps an upload's parts in <data>/<bucket>/._S3rver_uploads/<uploadId>/. */
function s3rverUploadGone(s3: S3rverHandle) {
  return async (uploadId: string) => {
    const entries = await readdir(join(s3.directory, s3.bucket, "._S3rver_uploads")).catch(
      () => [] as string[],
    );
    return !entries.includes(uploadId);
  };
}

multipartSuite("s3 (s3rver)", async () => {
  const s3 = await startS3rver();
  const driver = new S3StorageDriver(s3.driverConfig());
  const harness: Harness = { driver, store: multipartStoreFor(driver), uploadGone: s3rverUploadGone(s3) };
  return {
    harness,
    teardown: async () => {
      driver.close();
      await s3.stop();
    },
  };
});

describe("s3 direct mode (s3rver)", () => {
  let s3: S3rverHandle;
  let driver: S3StorageDriver;
  let publicDriver: S3StorageDriver;

  beforeAll(async () => {
    // ListParts pages of 2 parts, so listParts must follow pages.
    s3 = await startS3rver({ maxPartsPerPage: 2 });
    driver = new S3StorageDriver(s3.driverConfig());
    // Clients reach the store as "localhost" while the server uses 127.0.0.1.
    publicDriver = new S3StorageDriver({
      ...s3.driverConfig(),
      publicEndpoint: `http://localhost:${s3.port}`,
    });
  });
  afterAll(async () => {
    driver?.close();
    publicDriver?.close();
    await s3?.stop();
  });

  it("presigned part URLs take plain fetch PUTs; listParts pages; complete assembles", async () => {
    const store = driver.multipart;
    const key = "ws1/direct/movie.bin";
    const size = 4 * PART + 77; // five parts
    const data = randomBytes(size);
    const { uploadId } = await store.begin({ key, size, partSize: PART, partCount: 5 });
    const urls = await Promise.all(
      [1, 2, 3, 4, 5].map((partNumber) =>
        store.presignPart({ key, uploadId, partNumber, expiresInSeconds: 600 }),
      ),
    );
    expect(new URL(urls[0]!).host).toBe(`127.0.0.1:${s3.port}`);
    const etags: string[] = [];
    for (const [i, url] of urls.entries()) {
      const response = await fetch(url, { method: "PUT", body: partOf(data, i + 1) });
      expect(response.status).toBe(200);
      etags.push(response.headers.get("etag") ?? "");
    }
    const listed = await store.listParts({ key, uploadId });
    expect(listed.map((p) => p.number)).toEqual([1, 2, 3, 4, 5]);
    expect(listed.map((p) => p.size)).toEqual([PART, PART, PART, PART, 77]);
    expect(listed.map((p) => `"${p.etag}"`)).toEqual(etags);
    await store.complete({ key, uploadId, parts: listed });
    expect(sha256(await buffer(await driver.get(key)))).toBe(sha256(data));
    await expect(store.listParts({ key, uploadId })).rejects.toBeInstanceOf(UploadNotFoundError);
  });

  it("signs presigned URLs for the public endpoint's host", async () => {
    const key = "ws1/direct/public.bin";
    const data = randomBytes(1000);
    const { uploadId } = await publicDriver.multipart.begin({
      key,
      size: 1000,
      partSize: PART,
      partCount: 1,
    });
    const url = await publicDriver.multipart.presignPart({
      key,
      uploadId,
      partNumber: 1,
      expiresInSeconds: 60,
    });
    expect(new URL(url).host).toBe(`localhost:${s3.port}`);
    expect((await fetch(url, { method: "PUT", body: data })).status).toBe(200);
    // s3rver does not verify SigV4 signatures, so that a URL signed for one host fails on another
    // is checked in the real-MinIO suite (s3-driver.minio.test.ts).
    const parts = await publicDriver.multipart.listParts({ key, uploadId });
    await publicDriver.multipart.complete({ key, uploadId, parts });
    expect((await buffer(await driver.get(key))).equals(data)).toBe(true);
  });

  it("rejects bad presign arguments", async () => {
    const args = { key: "ws1/direct/x.bin", uploadId: "abc", partNumber: 1, expiresInSeconds: 60 };
    await expect(driver.multipart.presignPart({ ...args, partNumber: 0 })).rejects.toBeInstanceOf(
      InvalidPartError,
    );
    await expect(
      driver.multipart.presignPart({ ...args, expiresInSeconds: 8 * 24 * 3600 }),
    ).rejects.toBeInstanceOf(RangeError);
    await expect(driver.multipart.presignPart({ ...args, key: "../x" })).rejects.toBeInstanceOf(
      InvalidObjectKeyError,
    );
  });
});
