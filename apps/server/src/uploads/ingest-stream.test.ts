import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { hashStream } from "../storage/multipart/block-hash.js";
import { IngestStream } from "./ingest-stream.js";

async function ingest(chunks: Buffer[], keepUpTo?: number, expectedSize?: number) {
  const stream = new IngestStream({
    ...(keepUpTo === undefined ? {} : { keepUpTo }),
    ...(expectedSize === undefined ? {} : { expectedSize }),
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
    expect(result.hash).toBe((await hashStream([whole])).hash);
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
});
