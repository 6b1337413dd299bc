// In Node, `import { createClient } from "@trove/sdk"` resolves through the package's `node`
// export condition to the build that takes file paths and Node Readables, and uploads them to the
// real server like any other input.
import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, createUploadClient } from "@trove/sdk";
import * as nodeEntry from "@trove/sdk/node";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadDigest, patternBytes, patternDigest } from "./support/content.js";

describe('"@trove/sdk" in Node', () => {
  let server: ServerProcess;
  let dir = "";
  const options = () => ({
    apiKey: server.keys.public,
    baseUrl: server.baseUrl,
    assetsUrl: server.assetsUrl,
  });

  beforeAll(async () => {
    server = await startServerProcess();
    dir = await mkdtemp(join(tmpdir(), "trove-e2e-node-condition-"));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("is the Node build: the same clients as @trove/sdk/node", () => {
    expect(createClient).toBe(nodeEntry.createClient);
    expect(createUploadClient).toBe(nodeEntry.createUploadClient);
  });

  it("uploads a file path, directly and in parts, byte-exact under its name", async () => {
    const size = 70_000;
    const bytes = await patternBytes("node-condition", size);
    const path = join(dir, "data.bin");
    await writeFile(path, bytes);
    const expected = await patternDigest("node-condition", size);

    const direct = await createClient(options()).upload(path);
    expect(direct).toMatchObject({ name: "data.bin", size });
    expect(await downloadDigest(direct.url)).toBe(expected);

    const parts = await createUploadClient(options()).upload(path, {
      multipartThreshold: 1,
      fileName: "parts.bin",
    });
    expect(parts).toMatchObject({ name: "parts.bin", size });
    expect(await downloadDigest(parts.url)).toBe(expected);
  });

  it("uploads a Node Readable, named after the file it reads", async () => {
    const path = join(dir, "notes.txt");
    await writeFile(path, "read through a Node stream");
    const result = await createClient(options()).upload(createReadStream(path));
    expect(result).toMatchObject({ name: "notes.txt", size: 26 });
    expect(await (await fetch(result.url)).text()).toBe("read through a Node stream");
  });
});
