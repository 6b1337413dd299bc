import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { readUpTo } from "./read-up-to.js";

const chunksOf = (sizes: number[]) => sizes.map((size, i) => Buffer.alloc(size, 65 + i));

describe("readUpTo", () => {
  it("holds a stream that ends within the limit", async () => {
    const chunks = chunksOf([3, 4, 5]);
    const read = await readUpTo(Readable.from(chunks), 12);
    expect(read.complete).toBe(true);
    if (!read.complete) return;
    expect(read.size).toBe(12);
    expect(Buffer.concat(read.chunks)).toEqual(Buffer.concat(chunks));
  });

  it("hands back every byte, read ones first, of a stream longer than the limit", async () => {
    const chunks = chunksOf([3, 4, 5, 6, 7]);
    let pulled = 0;
    const source = Readable.from(
      (function* () {
        for (const chunk of chunks) {
          pulled += 1;
          yield chunk;
        }
      })(),
    );
    const read = await readUpTo(source, 6);
    expect(read.complete).toBe(false);
    if (read.complete) return;
    // It stopped reading at the chunk that passed the limit: the rest waits for the consumer.
    expect(pulled).toBe(2);
    expect(await buffer(read.stream)).toEqual(Buffer.concat(chunks));
  });

  it("passes a source error on, held or streamed", async () => {
    const failing = () =>
      Readable.from(
        (async function* () {
          yield Buffer.alloc(4);
          throw new Error("source broke");
        })(),
      );
    await expect(readUpTo(failing(), 100)).rejects.toThrow("source broke");
    const read = await readUpTo(failing(), 2);
    if (read.complete) throw new Error("expected a stream");
    await expect(buffer(read.stream)).rejects.toThrow("source broke");
  });

  it("releases the source when the consumer stops early", async () => {
    const source = Readable.from(chunksOf([5, 5, 5, 5]));
    const read = await readUpTo(source, 3);
    if (read.complete) throw new Error("expected a stream");
    read.stream.destroy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(source.destroyed).toBe(true);
  });
});
