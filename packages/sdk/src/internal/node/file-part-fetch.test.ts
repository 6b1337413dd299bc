import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patternBytes } from "../../../test/support/fake-multipart.js";
import { withFilePartBodies } from "./file-part-fetch.js";
import { FileRangeBlob } from "./file-range-blob.js";

let dir = "";
let file: FileRangeBlob;
const bytes = patternBytes(4000);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-sdk-part-fetch-"));
  const path = join(dir, "data.bin");
  await writeFile(path, bytes);
  const info = await stat(path);
  file = new FileRangeBlob(path, 0, info.size, { size: info.size, mtimeMs: info.mtimeMs });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function recordingFetch(answer: (init: RequestInit | undefined) => Promise<Response>) {
  const calls: Array<RequestInit | undefined> = [];
  const fetchFn = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(init);
    return answer(init);
  }) as typeof fetch;
  return { calls, fetchFn };
}

describe("withFilePartBodies", () => {
  it("sends a file part without redirects or window (no teed copy); other requests as given", async () => {
    const { calls, fetchFn } = recordingFetch(async () => new Response("ok"));
    const wrapped = withFilePartBodies(fetchFn);
    await wrapped("http://127.0.0.1/part", { method: "PUT", body: file.slice(0, 10) });
    const other = { method: "PUT", body: new Blob(["x"]) };
    await wrapped("http://127.0.0.1/other", other);
    expect(calls[0]).toMatchObject({ method: "PUT", redirect: "error", window: null });
    expect(calls[1]).toBe(other);
  });

  it("does not send a part twice when it failed for another reason", async () => {
    const { calls, fetchFn } = recordingFetch(async () => {
      throw new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") });
    });
    await expect(
      withFilePartBodies(fetchFn)("http://127.0.0.1/part", { method: "PUT", body: file.slice(0, 10) }),
    ).rejects.toThrow("fetch failed");
    expect(calls).toHaveLength(1);
  });

  it("follows a redirect after all (S3 for a bucket in another region): the part arrives whole", async () => {
    const arrived: Array<{ url: string | undefined; body: Buffer }> = [];
    const server = createServer(async (request, response) => {
      const body = await buffer(request);
      if (request.url === "/moved") {
        response.writeHead(307, { location: "/part" }).end();
        return;
      }
      arrived.push({ url: request.url, body });
      response.end("stored");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await withFilePartBodies(undefined)(`http://127.0.0.1:${port}/moved`, {
        method: "PUT",
        body: file.slice(1000, 3000),
      });
      expect(await response.text()).toBe("stored");
    } finally {
      server.close();
    }
    expect(arrived.map((a) => a.url)).toEqual(["/part"]);
    expect(new Uint8Array(arrived[0]?.body ?? [])).toEqual(bytes.subarray(1000, 3000));
  });
});
