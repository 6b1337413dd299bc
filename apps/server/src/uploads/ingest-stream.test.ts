import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it, vi } from "vitest";
import { BlockHasher, hashStream } from "../content-hash/index.js";
import { IngestStream } from "./ingest-stream.js";

async function ingest(chunks: Buffer[], keepUpTo?: number, expectedSize?: number, deferHash?: boolean) {
  const stream = new IngestStream({
    ...(keepUpTo === undefined ? {} : { keepUpTo }),
    ...(expectedSize === undefined ? {} : { expectedSize }),
    ...(deferHash === undefined ? {} : { deferHash }),
  });
  const passed: Buffer[] = [];
  await pipeline(
    Readable.from(chunks),
    stream,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        passed.push(chunk);
        callback();
      },
    }),
  );
  return { result: stream.result(), passed: Buffer.concat(passed) };
}

describe("IngestStream", () => {
  const chunks = [Buffer.alloc(3000, 1), Buffer.alloc(3000, 2), Buffer.from("end")];
  const whole = Buffer.concat(chunks);

  it("passes the bytes through, hashes them and keeps the head", async () => {
    const { result, passed } = await ingest(chunks);
    expect(Buffer.compare(passed, whole)).toBe(0);
    expect(result.size).toBe(whole.length);
    expect(result.hash()).toBe((await hashStream([whole])).hash);
    expect(Buffer.compare(result.head, whole.subarray(0, 4100))).toBe(0);
    expect(result.bytes).toBeUndefined();
  });

  it("keeps a body whose size was announced too low or too high", async () => {
    for (const expectedSize of [10, whole.length, whole.length * 3]) {
      const { result } = await ingest(chunks, whole.length, expectedSize);
      expect(result.bytes?.().equals(whole), `${expectedSize}`).toBe(true);
    }
  });

  it("keeps a body of at most keepUpTo bytes, one copy", async () => {
    const { result } = await ingest(chunks, whole.length);
    const bytes = result.bytes?.();
    expect(bytes && Buffer.compare(bytes, whole)).toBe(0);
    expect(result.bytes?.()).toBe(bytes);
  });

  it("keeps nothing of a longer body", async () => {
    const { result } = await ingest(chunks, whole.length - 1);
    expect(result.bytes).toBeUndefined();
  });

  it("with deferHash, hashes a kept body only when asked, and then once", async () => {
    const update = vi.spyOn(BlockHasher.prototype, "update");
    try {
      const { result } = await ingest(chunks, whole.length, undefined, true);
      expect(update).not.toHaveBeenCalled();
      expect(result.size).toBe(whole.length);
      expect(result.hash()).toBe((await hashStream([whole])).hash);
      const calls = update.mock.calls.length;
      expect(result.hash()).toBe(result.hash());
      expect(update.mock.calls.length).toBe(calls);
    } finally {
      update.mockRestore();
    }
  });

  it("with deferHash, hashes a body that outgrows keepUpTo as it arrives, from its first byte", async () => {
    const big = [...chunks, Buffer.alloc(2 * 1024 * 1024, 7), Buffer.from("tail")];
    for (const keepUpTo of [3000, 6000, 6003 + 1024 * 1024]) {
      const { result } = await ingest(big, keepUpTo, undefined, true);
      expect(result.bytes, `${keepUpTo}`).toBeUndefined();
      expect(result.hash(), `${keepUpTo}`).toBe((await hashStream([Buffer.concat(big)])).hash);
    }
  });
});
