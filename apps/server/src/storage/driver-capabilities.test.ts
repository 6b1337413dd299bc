/**
 * Optional driver capabilities are read from the driver, never from its class: a driver that is
 * neither the fs nor the s3 one gets multipart and local-path reads by declaring them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MediaError } from "../media/media-error.js";
import { ObjectNotFoundError, type StorageDriver } from "./driver.js";
import { FsStorageDriver } from "./fs-driver.js";
import { multipartStoreFor } from "./multipart/index.js";
import { imageInputOf } from "./object-keys.js";
import { openObject } from "./open-object.js";

let root: string;
let fs: FsStorageDriver;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "trove-driver-capabilities-"));
  fs = new FsStorageDriver(root);
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A driver of another kind storing through `fs`, with only the capabilities given. */
function otherDriver(
  capabilities: Pick<StorageDriver, "multipart" | "localPath" | "open"> = {},
): StorageDriver {
  return {
    kind: "other",
    put: (key, body, options) => fs.put(key, body, options),
    get: (key, options) => fs.get(key, options),
    stat: (key) => fs.stat(key),
    exists: (key) => fs.exists(key),
    delete: (key) => fs.delete(key),
    list: (prefix) => fs.list(prefix),
    ...capabilities,
  };
}

describe("multipart capability", () => {
  it("is the store a driver declares, whatever its class", async () => {
    const driver = otherDriver({ multipart: fs.multipart });
    const store = multipartStoreFor(driver);
    expect(store).toBe(fs.multipart);
    const { uploadId } = await store.begin({
      key: "ws/f/a.bin",
      size: 3,
      partSize: 5 * 1024 * 1024,
      partCount: 1,
    });
    await store.abort({ key: "ws/f/a.bin", uploadId });
  });

  it("is refused with the driver's kind when a driver declares none", () => {
    expect(() => multipartStoreFor(otherDriver())).toThrow('Storage driver "other" has no multipart support');
  });
});

describe("local path capability", () => {
  const key = "ws/f/pixels.bin";
  const bytes = Buffer.from("not really pixels");
  beforeAll(() => fs.put(key, Readable.from([bytes])));

  it("hands the media pipeline a path when the driver has one", async () => {
    expect(await imageInputOf(otherDriver({ localPath: (k) => fs.localPath(k) }), key, 1)).toBe(
      join(root, "ws", "f", "pixels.bin"),
    );
  });

  it("reads the bytes, up to the limit, when it has none", async () => {
    expect(await imageInputOf(otherDriver(), key, bytes.length)).toEqual(bytes);
    await expect(imageInputOf(otherDriver(), key, bytes.length - 1)).rejects.toBeInstanceOf(MediaError);
  });
});

describe("open capability", () => {
  const key = "ws/f/opened.txt";
  beforeAll(() => fs.put(key, Buffer.from("opened once")));

  it("is the driver's own open when it declares one: no stat", async () => {
    const driver = otherDriver({ open: (k) => fs.open(k) });
    const stat = vi.spyOn(driver, "stat");
    const opened = await openObject(driver, key);
    expect(opened?.size).toBe(11);
    expect(await text(opened?.body ?? Readable.from([]))).toBe("opened once");
    expect(stat).not.toHaveBeenCalled();
  });

  it("is stat then get for a driver without it, with the same answers", async () => {
    const driver = otherDriver();
    const opened = await openObject(driver, key);
    expect(opened?.size).toBe(11);
    expect(await text(opened?.body ?? Readable.from([]))).toBe("opened once");
    expect(await openObject(driver, "ws/f/missing")).toBeNull();
    // Removed between the stat and the get: missing too, not an error.
    const racing = { ...driver, get: () => Promise.reject(new ObjectNotFoundError(key)) };
    expect(await openObject(racing, key)).toBeNull();
  });
});
