/**
 * Input files, made once per run in a scratch directory: incompressible bytes for the upload
 * benches (a random 16 MiB block, stamped with its index so no two blocks are equal), and
 * generated JPEGs for the image benches.
 */
import { randomFillSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";

export interface Scratch {
  dir: string;
  /** A file of `size` incompressible bytes (made on first request, then reused). */
  bytesFile(size: number): Promise<string>;
  remove(): void;
}

export function createScratch(): Scratch {
  const dir = mkdtempSync(join(tmpdir(), "trove-bench-files-"));
  const made = new Map<number, Promise<string>>();
  return {
    dir,
    bytesFile(size) {
      let file = made.get(size);
      if (!file) {
        file = writeBytesFile(join(dir, `random-${size}.bin`), size);
        made.set(size, file);
      }
      return file;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function writeBytesFile(path: string, size: number): Promise<string> {
  const blockSize = 16 * 1024 * 1024;
  const block = randomFillSync(Buffer.alloc(blockSize));
  const handle = await open(path, "w");
  try {
    for (let offset = 0, index = 0; offset < size; offset += blockSize, index += 1) {
      block.writeBigUInt64BE(BigInt(index), 0);
      const length = Math.min(blockSize, size - offset);
      await handle.write(block, 0, length, offset);
    }
  } finally {
    await handle.close();
  }
  return path;
}

/**
 * A photo-like JPEG: smooth gradients with noise, `width` × `height`, at the quality that brings
 * it closest to `targetBytes` when given (else quality 85).
 */
export async function makeJpeg(width: number, height: number, targetBytes?: number): Promise<Buffer> {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = (y * width + x) * channels;
      const noise = (random() - 0.5) * 48;
      pixels[i] = clamp((x / width) * 255 + noise);
      pixels[i + 1] = clamp((y / height) * 255 + noise);
      pixels[i + 2] = clamp(128 + 100 * Math.sin((x + y) / 40) + noise);
    }
  }
  const encode = (quality: number) =>
    sharp(pixels, { raw: { width, height, channels } }).jpeg({ quality, mozjpeg: false }).toBuffer();
  if (targetBytes === undefined) return encode(85);
  let low = 10;
  let high = 98;
  let best = await encode(low);
  for (let step = 0; step < 7 && low <= high; step += 1) {
    const quality = Math.round((low + high) / 2);
    const out = await encode(quality);
    if (Math.abs(out.length - targetBytes) < Math.abs(best.length - targetBytes)) best = out;
    if (out.length < targetBytes) low = quality + 1;
    else high = quality - 1;
  }
  return best;
}

function clamp(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value)));
}

export function removeQuietly(path: string): void {
  rmSync(path, { force: true, recursive: true });
}
