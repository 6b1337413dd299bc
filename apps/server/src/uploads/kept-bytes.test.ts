import { describe, expect, it } from "vitest";
import { KeptBytes } from "./kept-bytes.js";

const chunksOf = (total: number, size: number) =>
  Array.from({ length: Math.ceil(total / size) }, (_, index) =>
    Buffer.alloc(Math.min(size, total - index * size), index % 251),
  );

describe("KeptBytes", () => {
  it("keeps every byte in order, across growths, without a final join", () => {
    const chunks = chunksOf(20 * 1024 * 1024 + 17, 65_536);
    const kept = new KeptBytes(32 * 1024 * 1024);
    for (const chunk of chunks) expect(kept.append(chunk)).toBe(true);
    expect(kept.bytes().equals(Buffer.concat(chunks))).toBe(true);
    const [first, second] = [kept.bytes(), kept.bytes()];
    expect(first.buffer).toBe(second.buffer); // the same memory each time, not a copy
  });

  it("sizes the buffer by the expected size, and still takes more if more arrives", () => {
    const kept = new KeptBytes(1_000_000, 1000);
    kept.append(Buffer.alloc(600, 1));
    kept.append(Buffer.alloc(400, 2));
    expect(kept.bytes().buffer.byteLength).toBeGreaterThanOrEqual(1000);
    kept.append(Buffer.alloc(5, 3));
    expect(kept.bytes()).toEqual(
      Buffer.concat([Buffer.alloc(600, 1), Buffer.alloc(400, 2), Buffer.alloc(5, 3)]),
    );
  });

  it("allocates for bytes received, not for a huge size a client announced", () => {
    const kept = new KeptBytes(32 * 1024 * 1024, 32 * 1024 * 1024);
    kept.append(Buffer.alloc(10));
    expect(kept.bytes().buffer.byteLength).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it("gives up past the limit, at once", () => {
    const kept = new KeptBytes(100);
    expect(kept.append(Buffer.alloc(100))).toBe(true);
    expect(kept.append(Buffer.alloc(1))).toBe(false);
  });
});
