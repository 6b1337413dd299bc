import { mkdtemp, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patternBytes } from "../../../test/support/fake-multipart.js";
import { readFileRange } from "./file-range.js";

const MiB = 1024 * 1024;
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-sdk-range-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function chunksOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return chunks;
}

async function fileOf(name: string, bytes: Uint8Array) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  const info = await stat(path);
  return { path, version: { size: info.size, mtimeMs: info.mtimeMs } };
}

describe("readFileRange", () => {
  it("reads exactly bytes start to end, in chunks of at most 1 MiB", async () => {
    const bytes = patternBytes(4 * MiB + 99);
    const { path, version } = await fileOf("range.bin", bytes);
    const start = MiB + 7;
    const end = 3 * MiB + MiB / 2 + 3;
    const chunks = await chunksOf(readFileRange(path, start, end, version));
    expect(chunks.length).toBe(3);
    expect(chunks.every((chunk) => chunk.byteLength <= MiB)).toBe(true);
    // Buffer.equals: a deep toEqual over megabytes takes seconds.
    const expected = Buffer.from(bytes.subarray(start, end));
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
    // A new stream reads the range again from the start (a retried part).
    expect(Buffer.concat(await chunksOf(readFileRange(path, start, end, version))).equals(expected)).toBe(
      true,
    );
  });

  it("fails instead of sending mixed content when the file changed since it was opened", async () => {
    const { path, version } = await fileOf("changed.bin", patternBytes(2 * MiB));
    await utimes(path, new Date(), new Date(version.mtimeMs + 5000));
    await expect(chunksOf(readFileRange(path, 0, 2 * MiB, version))).rejects.toThrow(
      `${path} changed during the upload`,
    );
  });

  it("fails when the file changes while the range is read", async () => {
    const { path, version } = await fileOf("growing.bin", patternBytes(3 * MiB));
    const reader = readFileRange(path, 0, 3 * MiB, version).getReader();
    expect((await reader.read()).value?.byteLength).toBe(MiB);
    await writeFile(path, patternBytes(3 * MiB + 1));
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toThrow("changed during the upload");
  });

  it("fails when the file became shorter than the range", async () => {
    const { path, version } = await fileOf("short.bin", patternBytes(2 * MiB));
    await writeFile(path, patternBytes(10));
    await expect(chunksOf(readFileRange(path, MiB, 2 * MiB, version))).rejects.toThrow(
      "changed during the upload",
    );
  });
});
