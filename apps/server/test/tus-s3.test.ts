// tus on the s3 driver (s3rver on loopback): the upload is the driver's multipart upload, filled
// in parts across PATCHes that end anywhere (the tail short of a part waits in a tail object),
// resumed by a new app instance, hashed from the parts' block digests, and terminated by abort.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { hashStream } from "../src/content-hash/index.js";
import { S3StorageDriver } from "../src/storage/s3-driver.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { type S3rverHandle, startS3rver } from "./support/s3rver.js";
import { TUS, testBytes, tusClient } from "./tus-helpers.js";

const MiB = 1024 * 1024;
let s3: S3rverHandle;
let t: TestApp;
const drivers: S3StorageDriver[] = [];
const { create, patch, head, storedFile, idOf } = tusClient(() => t);

function newDriver(): S3StorageDriver {
  const driver = new S3StorageDriver(s3.driverConfig());
  drivers.push(driver);
  return driver;
}

beforeAll(async () => {
  s3 = await startS3rver();
  t = await createTestApp({ storage: newDriver() });
});
afterAll(async () => {
  await t?.close();
  for (const driver of drivers) driver.close();
  await s3?.stop();
});

describe("tus on s3", () => {
  it("stores parts as they fill, across PATCHes, and on another instance; the file and hash are right", async () => {
    const bytes = testBytes(12 * MiB + 4321, 5);
    const id = idOf((await create(bytes.length, { filename: "big.bin" })).headers.location);
    const cuts = [3 * MiB + 1, 7 * MiB + 17];
    expect((await patch(id, 0, bytes.subarray(0, cuts[0]))).statusCode).toBe(204);
    expect((await patch(id, cuts[0] as number, bytes.subarray(cuts[0], cuts[1]))).statusCode).toBe(204);
    const row = await t.app.db.tusUpload.findUniqueOrThrow({ where: { id } });
    expect(row.storageUploadId).toBeTruthy();
    expect((row.parts as unknown[]).length).toBe(1);

    // The rest through a second instance (its own driver), which has neither tail nor hasher.
    const second = await buildApp({
      config: { ...t.config, seedDev: false },
      database: t.app.database,
      closeDatabase: false,
      storage: newDriver(),
      logger: false,
    });
    try {
      await second.ready();
      expect((await head(id, t.keys.private, second)).headers["upload-offset"]).toBe(String(cuts[1]));
      const last = await patch(id, cuts[1] as number, bytes.subarray(cuts[1]), t.keys.private, second);
      expect(last.statusCode).toBe(204);
      expect(last.headers["upload-offset"]).toBe(String(bytes.length));
      const file = await storedFile(String(last.headers["trove-file-no"]));
      expect(file.hash).toBe((await hashStream([bytes])).hash);
      const stored = Buffer.concat(await (await t.app.storage.get(file.storageKey)).toArray());
      expect(stored.equals(bytes)).toBe(true);
      expect(await t.app.storage.exists(`tus/${row.workspaceId}/${id}.tail`)).toBe(false);
    } finally {
      await second.close();
    }
  });

  it("DELETE aborts the multipart upload and removes the tail", async () => {
    const id = idOf((await create(6 * MiB, { filename: "gone.bin" })).headers.location);
    expect((await patch(id, 0, testBytes(MiB))).statusCode).toBe(204);
    const row = await t.app.db.tusUpload.findUniqueOrThrow({ where: { id } });
    expect(await t.app.storage.exists(`tus/${row.workspaceId}/${id}.tail`)).toBe(true);
    const res = await t.app.inject({
      method: "DELETE",
      url: `${TUS}/${id}`,
      headers: { "x-api-key": t.keys.private, "tus-resumable": "1.0.0" },
    });
    expect(res.statusCode).toBe(204);
    expect(await t.app.storage.exists(`tus/${row.workspaceId}/${id}.tail`)).toBe(false);
    expect(await t.app.db.tusUpload.findUnique({ where: { id } })).toBeNull();
  });
});
