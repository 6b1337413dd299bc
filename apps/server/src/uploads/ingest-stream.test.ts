import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { hashStream } from "../storage/multipart/block-hash.js";
import { IngestStream } from "./ingest-stream.js";

async function ingest(chunks: Buffer[], keepUpTo?: number) {
  const stream = new IngestStream(keepUpTo === undefined ? {} : { keepUpTo });
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

  it("keeps a body of at most keepUpTo bytes, joined once", async () => {
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
