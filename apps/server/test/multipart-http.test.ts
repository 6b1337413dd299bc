// The part gateway over real HTTP (the app listening on a port, parts PUT with fetch), because
// streaming matters: chunked bodies without Content-Length, answers sent while a refused body is
// still arriving, and a 200 MiB upload streamed end to end with bounded memory.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockHasher, combineBlockDigests, hashStream } from "../src/content-hash/index.js";
import { complete, fetchPut, MiB, sha256, start, testBytes } from "./multipart-helpers.js";
import { closeListeningTestApp, listeningTestApp, type TestApp } from "./support/index.js";

let t: TestApp;
let origin: string;
beforeAll(async () => {
  ({ t, origin } = await listeningTestApp());
});
afterAll(async () => {
  await closeListeningTestApp(t);
});

/** A ReadableStream of `data` in `chunk`-byte pieces (sent chunked: no Content-Length). */
function streamOf(data: Uint8Array, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= data.length) {
        controller.close();
        return;
      }
      controller.enqueue(data.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
}

describe("part gateway over HTTP", () => {
  it("takes parts in parallel, then complete assembles them byte-exact", async () => {
    const data = testBytes(4 * 5 * MiB + 999, 21);
    const session = await start(t, { file_name: "parallel.bin", size: data.length });
    const responses = await Promise.all(
      session.parts.map((url, i) =>
        fetchPut(origin, url, data.subarray(i * session.part_size, (i + 1) * session.part_size)),
      ),
    );
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]{64}"$/);
      await res.arrayBuffer();
    }
    const done = await complete(t, session.session_id);
    const delivered = await fetch(`${origin}${new URL(done.url).pathname}`);
    expect(delivered.status).toBe(200);
    expect(sha256(new Uint8Array(await delivered.arrayBuffer()))).toBe(sha256(data));
  });

  it("enforces the streamed length of a chunked body (no Content-Length)", async () => {
    const data = testBytes(5 * MiB + 10, 5);
    const session = await start(t, { file_name: "chunked.bin", size: data.length });
    const [first, second] = session.parts as [string, string];

    const short = await fetchPut(origin, first, streamOf(data.subarray(0, 3 * MiB)));
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({
      success: false,
      error: `Part 1 must be ${5 * MiB} bytes, received ${3 * MiB}`,
    });
    const long = await fetchPut(origin, first, streamOf(testBytes(6 * MiB)));
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({
      success: false,
      error: `Part 1 must be ${5 * MiB} bytes, received more`,
    });
    expect(await t.app.db.multipartPart.count({ where: { sessionId: session.session_id } })).toBe(0);

    const ok = await fetchPut(origin, first, streamOf(data.subarray(0, 5 * MiB)));
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    const last = await fetchPut(origin, second, streamOf(data.subarray(5 * MiB)));
    expect(last.status).toBe(200);
    await last.arrayBuffer();
    const done = await complete(t, session.session_id);
    const file = await t.app.db.file.findUniqueOrThrow({ where: { id: done.id } });
    expect(file.hash).toBe((await hashStream([data])).hash);
  });

  it("answers a refused part while its body is still arriving, and the connection stays usable", async () => {
    const session = await start(t, { file_name: "refused.bin", size: 5 * MiB + 1 });
    const url = new URL(session.parts[0] as string);
    url.searchParams.set("signature", "0".repeat(64));
    for (let i = 0; i < 3; i++) {
      const res = await fetchPut(origin, url.toString(), streamOf(testBytes(5 * MiB)));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: "Invalid signature" });
    }
    const wrongType = await fetchPut(origin, session.parts[0] as string, testBytes(5 * MiB), {
      "content-type": "text/plain",
    });
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toEqual({
      success: false,
      error: "Content-Type must be application/octet-stream",
    });
    const ok = await fetchPut(origin, session.parts[1] as string, testBytes(1));
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
  });
});

describe("a 200 MiB multipart upload (gateway, fs)", () => {
  const SIZE = 200 * MiB;
  const CHUNK = 256 * 1024;
  const template = testBytes(CHUNK, 77);

  /** Chunk `index` of the generated content: the template with the index stamped in. */
  function chunkAt(index: number): Uint8Array {
    const chunk = Buffer.from(template);
    chunk.writeUInt32LE(index, 0);
    chunk.writeUInt32LE(index ^ 0x5a5a5a5a, CHUNK - 4);
    return chunk;
  }

  /** Bytes [start, end) of the content as a stream, generated as it is read. */
  function generated(start: number, end: number): ReadableStream<Uint8Array> {
    let index = start / CHUNK;
    return new ReadableStream({
      pull(controller) {
        if (index * CHUNK >= end) {
          controller.close();
          return;
        }
        controller.enqueue(chunkAt(index++));
      },
    });
  }

  it("streams in from generated parts and reads back byte-exact with bounded memory", {
    timeout: 120_000,
  }, async () => {
    const began = Date.now();
    const baseline = process.memoryUsage();
    let peakRss = baseline.rss;
    let peakExternal = baseline.external + baseline.arrayBuffers;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakExternal = Math.max(peakExternal, now.external + now.arrayBuffers);
    }, 20);

    try {
      const session = await start(t, { file_name: "big.bin", size: SIZE });
      // The fs store plans about 32 parts: 7 MiB each, the last 4 MiB.
      expect(session.part_size).toBe(7 * MiB);
      expect(session.parts).toHaveLength(29);
      const queue = session.parts.map((url, i) => ({ url, i }));
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const from = next.i * session.part_size;
          const res = await fetchPut(
            origin,
            next.url,
            generated(from, Math.min(SIZE, from + session.part_size)),
          );
          expect(res.status).toBe(200);
          await res.arrayBuffer();
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      const uploadedAt = Date.now();
      const done = await complete(t, session.session_id);
      const completedAt = Date.now();
      expect(done.file_size).toBe(SIZE);

      // Expected digests from one more generation pass (never the whole content in memory).
      const sha = createHash("sha256");
      const blocks = new BlockHasher();
      for (let i = 0; i * CHUNK < SIZE; i++) {
        const chunk = chunkAt(i);
        sha.update(chunk);
        blocks.update(chunk);
      }
      const expectedSha = sha.digest("hex");
      const file = await t.app.db.file.findUniqueOrThrow({ where: { id: done.id } });
      expect(file.hash).toBe(combineBlockDigests(blocks.digest()));

      const delivered = await fetch(`${origin}${new URL(done.url).pathname}`);
      expect(delivered.status).toBe(200);
      const readBack = createHash("sha256");
      let bytes = 0;
      for await (const chunk of delivered.body as unknown as AsyncIterable<Uint8Array>) {
        readBack.update(chunk);
        bytes += chunk.length;
      }
      expect(bytes).toBe(SIZE);
      expect(readBack.digest("hex")).toBe(expectedSha);
      const finished = Date.now();

      const growth = (peakRss - baseline.rss) / MiB;
      const external = (peakExternal - baseline.external - baseline.arrayBuffers) / MiB;
      console.log(
        `200 MiB multipart: upload ${uploadedAt - began} ms (${Math.round((SIZE / MiB / (uploadedAt - began)) * 1000)} MiB/s), ` +
          `complete ${completedAt - uploadedAt} ms, total with verification ${finished - began} ms; ` +
          `peak RSS +${growth.toFixed(0)} MiB, peak buffers +${external.toFixed(0)} MiB`,
      );
      // Memory is bounded by the parts in flight, not by the file: well below its 200 MiB. (Buffers
      // awaiting garbage collection are counted in `external` too, so only RSS is asserted.)
      expect(growth).toBeLessThan(120);
    } finally {
      clearInterval(sampler);
    }
  });
});
