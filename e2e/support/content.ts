/** Deterministic test content: a seeded byte pattern, so nothing large is kept twice in memory. */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";

const BLOCK = 64 * 1024;

/** Block `index` of the pattern for `seed`: SHA-256 chains, cheap and not compressible. */
function block(seed: string, index: number): Buffer {
  const out = Buffer.allocUnsafe(BLOCK);
  let digest = createHash("sha256").update(`${seed}:${index}`).digest();
  for (let offset = 0; offset < BLOCK; offset += digest.length) {
    digest.copy(out, offset);
    digest = createHash("sha256").update(digest).digest();
  }
  return out;
}

/** `size` bytes of the pattern as a Node stream. */
export function patternStream(seed: string, size: number): Readable {
  let produced = 0;
  let index = 0;
  return new Readable({
    read() {
      if (produced >= size) {
        this.push(null);
        return;
      }
      const chunk = block(seed, index++);
      const take = Math.min(chunk.length, size - produced);
      produced += take;
      this.push(take === chunk.length ? chunk : chunk.subarray(0, take));
    },
  });
}

export async function patternBytes(seed: string, size: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of patternStream(seed, size)) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

export async function sha256OfStream(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    size += chunk.length;
  }
  return `${size}:${hash.digest("hex")}`;
}

/** SHA-256 and length of the pattern, computed by streaming it. */
export function patternDigest(seed: string, size: number): Promise<string> {
  return sha256OfStream(patternStream(seed, size));
}

/** Downloads `url` and digests the body as it streams. */
export async function downloadDigest(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`GET ${url} answered ${response.status}`);
  return sha256OfStream(response.body as unknown as AsyncIterable<Uint8Array>);
}

/**
 * The API's `hash` of content, by its published definition (the "b1" block tree): SHA-256 over
 * the concatenated SHA-256 digests of its 1 MiB blocks, in order. Computed here, not imported
 * from the server, so a test compares the server's answer with the definition.
 */
export async function contentHash(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const blockSize = 1024 * 1024;
  const tree = createHash("sha256");
  let current = createHash("sha256");
  let filled = 0;
  for await (const chunk of stream) {
    for (let offset = 0; offset < chunk.length; ) {
      const take = Math.min(blockSize - filled, chunk.length - offset);
      current.update(chunk.subarray(offset, offset + take));
      offset += take;
      filled += take;
      if (filled === blockSize) {
        tree.update(current.digest());
        current = createHash("sha256");
        filled = 0;
      }
    }
  }
  if (filled > 0) tree.update(current.digest());
  return tree.digest("hex");
}
