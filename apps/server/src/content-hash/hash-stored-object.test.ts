import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ByteRange, ObjectNotFoundError, type StorageDriver } from "../storage/driver.js";
import { FsStorageDriver } from "../storage/fs-driver.js";
import { BLOCK_SIZE, hashStream } from "./block-hash.js";
import { blockAlignedRanges, hashStoredObject } from "./hash-stored-object.js";

describe("blockAlignedRanges", () => {
  it.each([
    [0, 4],
    [1, 4],
    [BLOCK_SIZE - 1, 4],
    [BLOCK_SIZE, 4],
    [BLOCK_SIZE + 1, 4],
    [3 * BLOCK_SIZE, 4],
    [9 * BLOCK_SIZE + 5, 4],
    [1024 * BLOCK_SIZE, 4],
    [7 * BLOCK_SIZE, 1],
    [7 * BLOCK_SIZE, 100],
  ])("covers %i bytes in at most %i contiguous ranges that start on block boundaries", (size, count) => {
    const ranges = blockAlignedRanges(size, count);
    expect(ranges.length).toBeLessThanOrEqual(count);
    expect(ranges.length).toBe(size === 0 ? 0 : Math.min(count, Math.ceil(size / BLOCK_SIZE)));
    let next = 0;
    for (const range of ranges) {
      expect(range.start).toBe(next);
      expect(range.start % BLOCK_SIZE).toBe(0);
      expect(range.end).toBeGreaterThanOrEqual(range.start);
      next = range.end + 1;
    }
    expect(next).toBe(size);
  });
});

describe("hashStoredObject", () => {
  let root: string;
  let storage: FsStorageDriver;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "trove-hash-stored-"));
    storage = new FsStorageDriver(root);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it.each([0, 1, BLOCK_SIZE - 1, BLOCK_SIZE, BLOCK_SIZE + 1, 5 * BLOCK_SIZE + 123, 9 * BLOCK_SIZE])(
    "gives %i bytes the hash and block digests of one pass, in 1, 2, 4 or 7 ranges",
    async (size) => {
      const data = randomBytes(size);
      const key = `objects/${size}`;
      await storage.put(key, data);
      const expected = await hashStream([data]);
      for (const ranges of [1, 2, 4, 7]) {
        const result = await hashStoredObject(storage, key, ranges);
        expect(result).toEqual({ hash: expected.hash, size, blockDigests: expected.blockDigests });
      }
    },
  );

  it("answers ObjectNotFoundError for a missing object", async () => {
    await expect(hashStoredObject(storage, "objects/none")).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it("refuses a range that reads short (the object changed), and stops reading the others", async () => {
    const data = randomBytes(4 * BLOCK_SIZE);
    await storage.put("objects/changing", data);
    const bodies: Readable[] = [];
    const changing: Pick<StorageDriver, "get" | "stat"> = {
      stat: (key) => storage.stat(key),
      async get(_key: string, options?: { range?: ByteRange }) {
        const range = options?.range as ByteRange;
        // The second range comes back one byte short; the others read slowly, so they are still
        // open when it fails.
        const body =
          range.start === BLOCK_SIZE
            ? Readable.from([data.subarray(range.start, range.end)])
            : Readable.from(
                (async function* () {
                  for (let at = range.start; at <= range.end; at += 64 * 1024) {
                    await new Promise((resolve) => setTimeout(resolve, 5));
                    yield data.subarray(at, Math.min(range.end + 1, at + 64 * 1024));
                  }
                })(),
              );
        bodies.push(body);
        return body;
      },
    };
    await expect(hashStoredObject(changing, "objects/changing", 4)).rejects.toThrow(
      /bytes 1048576-2097151 read as 1048575 bytes, not 1048576; the object changed/,
    );
    expect(bodies).toHaveLength(4);
    expect(bodies.every((body) => body.destroyed)).toBe(true);
  });
});
