import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import {
  BLOCK_SIZE,
  BlockHasher,
  BlockHashStream,
  combineBlockDigests,
  combinePartBlockDigests,
  hashStream,
} from "./block-hash.js";

const MiB = 1024 * 1024;

/** Chunks of an awkward size, so block boundaries fall inside chunks. */
function chunked(data: Buffer, chunkSize = 64 * 1024 + 7): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += chunkSize) chunks.push(data.subarray(i, i + chunkSize));
  return Readable.from(chunks);
}

/** What a multipart upload computes: block digests per part, combined in part order. */
function multipartHash(data: Buffer, partSize: number, order: "forward" | "reverse"): string {
  const parts: Array<{ number: number; blockDigests: string[] }> = [];
  const count = Math.max(1, Math.ceil(data.length / partSize));
  for (let n = 1; n <= count; n++) {
    const hasher = new BlockHasher();
    const part = data.subarray((n - 1) * partSize, n * partSize);
    // Feed each part in two uneven pieces, as a network would.
    hasher.update(part.subarray(0, 1000));
    hasher.update(part.subarray(1000));
    parts.push({ number: n, blockDigests: hasher.digest() });
  }
  if (order === "reverse") parts.reverse();
  return combinePartBlockDigests(parts);
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest();

describe("block hash", () => {
  it("is sha256 over the raw block digests", async () => {
    expect((await hashStream([])).hash).toBe(createHash("sha256").digest("hex"));
    expect((await hashStream([Buffer.from("a")])).hash).toBe(
      createHash("sha256")
        .update(sha256(Buffer.from("a")))
        .digest("hex"),
    );
    const twoBlocks = Buffer.alloc(BLOCK_SIZE + 1, 7);
    const expected = createHash("sha256")
      .update(sha256(twoBlocks.subarray(0, BLOCK_SIZE)))
      .update(sha256(twoBlocks.subarray(BLOCK_SIZE)))
      .digest("hex");
    const result = await hashStream(chunked(twoBlocks));
    expect(result.hash).toBe(expected);
    expect(result.size).toBe(BLOCK_SIZE + 1);
    expect(result.blockDigests).toHaveLength(2);
  });

  it.each([
    ["1 B", 1],
    ["1 MiB - 1", MiB - 1],
    ["1 MiB", MiB],
    ["5 MiB + 1", 5 * MiB + 1],
    ["12 MiB", 12 * MiB],
  ])("multipart hash equals the direct hash for %s", async (_label, size) => {
    const data = randomBytes(size);
    const direct = await hashStream(chunked(data));
    expect(direct.size).toBe(size);
    for (const partSize of [MiB, 2 * MiB, 5 * MiB]) {
      expect(multipartHash(data, partSize, "forward")).toBe(direct.hash);
      expect(multipartHash(data, partSize, "reverse")).toBe(direct.hash);
    }
    // Different content, different hash.
    const other = Buffer.from(data);
    other[size - 1] = (other[size - 1]! + 1) & 0xff;
    expect((await hashStream([other])).hash).not.toBe(direct.hash);
  });

  it("BlockHashStream passes the bytes through unchanged and reports the hash", async () => {
    const data = randomBytes(3 * MiB + 5);
    const tap = new BlockHashStream();
    const out = await buffer(chunked(data).pipe(tap));
    expect(out.equals(data)).toBe(true);
    expect(tap.result()).toEqual(await hashStream([data]));
  });

  it("rejects digests that are not SHA-256 hex", () => {
    expect(() => combineBlockDigests(["abc"])).toThrow(TypeError);
  });
});
