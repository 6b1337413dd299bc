// The SDK uploads to the real server over HTTP, with each storage driver, and every file is read
// back byte-exact through the delivery host.
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createClient } from "@trove/sdk/node";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contentHash,
  downloadDigest,
  patternBytes,
  patternDigest,
  patternStream,
} from "./support/content.js";
import { byProfile } from "./support/reliability-profile.js";
import { STORAGE_DRIVERS, type StorageBackend, startStorage } from "./support/storage-matrix.js";

const MIB = 1024 * 1024;
const SIZES = [1, 5 * MIB - 1, 5 * MIB, 5 * MIB + 1];
/** The large file: several parts in `npm test`, 200 MiB in .ci/run's long stage. */
const LARGE_MIB = byProfile({ short: 48, long: 200, full: 200 });

describe.each(STORAGE_DRIVERS)("uploads through the SDK, %s driver", (driver) => {
  let storage: StorageBackend;
  let server: ServerProcess;
  let workDir: string;
  const client = () =>
    createClient({ apiKey: server.keys.public, baseUrl: server.baseUrl, assetsUrl: server.assetsUrl });

  beforeAll(async () => {
    storage = await startStorage(driver);
    server = await startServerProcess(storage.env);
    workDir = await mkdtemp(join(tmpdir(), "trove-e2e-files-"));
  });

  afterAll(async () => {
    await server?.stop();
    await storage?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it.each(SIZES)("a %i-byte file, direct and multipart, comes back byte-exact", async (size) => {
    const seed = `${driver}-${size}`;
    const bytes = await patternBytes(seed, size);
    const expected = await patternDigest(seed, size);

    const direct = await client().upload(bytes, { fileName: `direct-${size}.bin` });
    expect(direct.size).toBe(size);
    expect(await downloadDigest(direct.url)).toBe(expected);

    // A threshold of one byte sends even a 1-byte file through start → parts → complete.
    const parts = await client().upload(bytes, { fileName: `parts-${size}.bin`, multipartThreshold: 1 });
    expect(parts.size).toBe(size);
    expect(await downloadDigest(parts.url)).toBe(expected);
    expect(parts.url).not.toBe(direct.url);
  });

  it("a file path sent in one direct POST (its form body streamed from the file) is stored byte-exact, with its hash", async () => {
    // Not a multiple of the 1 MiB hash block, and above the default threshold, which is lifted.
    const size = 12 * MIB + 3;
    const path = join(workDir, "direct.bin");
    await pipeline(patternStream("direct", size), createWriteStream(path));
    const result = await client().upload(path, { multipartThreshold: 2 ** 40 });
    expect(result.size).toBe(size);
    // The delivery's ETag is the stored file's content hash.
    const head = await fetch(result.url, { method: "HEAD" });
    expect(head.headers.get("etag")).toBe(`"${await contentHash(createReadStream(path))}"`);
    expect(await downloadDigest(result.url)).toBe(await patternDigest("direct", size));
  });

  it(
    `a ${LARGE_MIB} MiB file from disk goes up in parts and comes back byte-exact`,
    async () => {
      const size = LARGE_MIB * MIB;
      const path = join(workDir, "big.bin");
      await pipeline(patternStream("big", size), createWriteStream(path));
      const progress: number[] = [];
      const result = await client().upload(path, {
        folder: "e2e/large",
        onProgress: ({ loaded }) => progress.push(loaded),
      });
      expect(result.size).toBe(size);
      expect(result.path).toBe("e2e/large/big.bin");
      expect(progress.at(-1)).toBe(size);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(await downloadDigest(result.url)).toBe(await patternDigest("big", size));
      // s3rver writes each part to disk and reads it back to assemble: its time grows with the size,
      // and a CI machine running other suites beside it took over 180 s for 200 MiB.
    },
    180_000 + LARGE_MIB * 2_000,
  );
});
