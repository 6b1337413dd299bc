import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patternBytes } from "../../../test/support/fake-multipart.js";
import { FileRangeBlob } from "./file-range-blob.js";

let dir = "";
let path = "";
const bytes = patternBytes(3000);
let whole: FileRangeBlob;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-sdk-range-blob-"));
  path = join(dir, "data.bin");
  await writeFile(path, bytes);
  const info = await stat(path);
  whole = new FileRangeBlob(path, 0, info.size, { size: info.size, mtimeMs: info.mtimeMs });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("FileRangeBlob", () => {
  it("is a Blob of the range's size whose methods read the range", async () => {
    const part = whole.slice(1000, 2500);
    expect(part).toBeInstanceOf(Blob);
    expect([part.size, part.type]).toEqual([1500, ""]);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(1000, 2500));
    const streamed: Uint8Array[] = [];
    for await (const chunk of part.stream() as unknown as AsyncIterable<Uint8Array>) streamed.push(chunk);
    expect(new Uint8Array(Buffer.concat(streamed))).toEqual(bytes.subarray(1000, 2500));
    expect(await whole.slice(0, 4).text()).toBe(new TextDecoder().decode(bytes.subarray(0, 4)));
  });

  it("slices like Blob.slice: negative offsets from the end, clamped, nested", async () => {
    const reference = new Blob([bytes]);
    for (const [start, end] of [
      [-500, undefined],
      [2500, 99_999],
      [-99_999, 10],
      [2000, 1000],
      [undefined, undefined],
    ] as const) {
      const ours = new Uint8Array(await whole.slice(start, end).arrayBuffer());
      expect(ours).toEqual(new Uint8Array(await reference.slice(start, end).arrayBuffer()));
    }
    const nested = whole.slice(100, 900).slice(50, -50);
    expect(new Uint8Array(await nested.arrayBuffer())).toEqual(bytes.subarray(150, 850));
  });

  it("goes over the wire from fetch with its Content-Length, not chunked", async () => {
    const seen: Array<{ headers: IncomingHttpHeaders; body: Buffer }> = [];
    const server = createServer(async (request, response) => {
      seen.push({ headers: request.headers, body: await buffer(request) });
      response.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/part`, {
        method: "PUT",
        headers: { "content-type": "application/octet-stream" },
        body: whole.slice(10, 1010),
      });
      expect(await response.text()).toBe("ok");
    } finally {
      server.close();
    }
    expect(seen[0]?.headers["content-length"]).toBe("1000");
    expect(seen[0]?.headers["transfer-encoding"]).toBeUndefined();
    expect(new Uint8Array(seen[0]?.body ?? [])).toEqual(bytes.subarray(10, 1010));
  });
});
