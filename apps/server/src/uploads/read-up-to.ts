/**
 * `readUpTo(stream, limit)`: reads a stream into memory unless it turns out longer than `limit`
 * bytes; then it hands back a stream of everything, the chunks read so far first, so the caller
 * can store it as if nothing had been read. Memory stays within `limit` plus one chunk.
 */
import { Readable } from "node:stream";

export type ReadUpToResult =
  | { complete: true; chunks: Buffer[]; size: number }
  | { complete: false; stream: Readable };

export async function readUpTo(stream: Readable, limit: number): Promise<ReadUpToResult> {
  const iterator: AsyncIterator<Buffer> = stream[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { complete: true, chunks, size };
    chunks.push(next.value);
    size += next.value.length;
    if (size > limit) {
      const rest = Readable.from(replay(chunks, iterator));
      // The consumer stopped early (a failed write): release the source as well.
      rest.once("close", () => {
        if (!stream.readableEnded) stream.destroy();
      });
      return { complete: false, stream: rest };
    }
  }
}

async function* replay(chunks: Buffer[], iterator: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  // Let the read chunks go as they are sent: nothing holds them but this generator.
  while (chunks.length > 0) yield chunks.shift() as Buffer;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return;
    yield next.value;
  }
}
