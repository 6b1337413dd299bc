import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isImageFile } from "../media/image-input.js";
import { MediaError } from "../media/media-error.js";
import { renderVariant } from "../media/render-variant.js";
import { ObjectNotFoundError } from "../storage/driver.js";
import { HEAD_BYTES, readStoredOriginal } from "./read-stored-original.js";
import { RenderGate } from "./render-gate.js";
import { VariantRenderer } from "./variant-renderer.js";
import type { VariantStore } from "./variant-store.js";

/** Deterministic noise, which no encoder compresses: files larger than HEAD_BYTES. */
function noise(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 3);
  let state = 7;
  for (let i = 0; i < data.length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    data[i] = state >> 23;
  }
  return data;
}

const raw = (width: number, height: number) =>
  sharp(noise(width, height), { raw: { width, height, channels: 3 } });

/** `jpeg` with two 64 KiB APP3 segments after SOI: its first scan starts past HEAD_BYTES. */
function withLongHeader(jpeg: Buffer): Buffer {
  const segment = (fill: number) => {
    const bytes = Buffer.alloc(2 + 65_535, fill);
    bytes.writeUInt16BE(0xffe3, 0);
    bytes.writeUInt16BE(65_535, 2);
    return bytes;
  };
  return Buffer.concat([jpeg.subarray(0, 2), segment(1), segment(2), jpeg.subarray(2)]);
}

/** Byte equality (toEqual compares a large Buffer element by element, for seconds). */
const sameBytes = (actual: unknown, expected: Buffer | undefined) =>
  Buffer.isBuffer(actual) && expected !== undefined && actual.equals(expected);

let dir: string;
const files: Record<string, Buffer> = {};
const storage = {
  localPath: (key: string) => join(dir, key),
  get: () => Promise.reject(new Error("the fs driver's files are read by path")),
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-original-"));
  files["small.jpg"] = await raw(64, 64).jpeg().toBuffer();
  files["photo.jpg"] = await raw(800, 600).jpeg({ quality: 95 }).toBuffer();
  files["long-header.jpg"] = withLongHeader(files["photo.jpg"]);
  files["photo.webp"] = await raw(600, 450).webp({ quality: 95 }).toBuffer();
  for (const [name, bytes] of Object.entries(files)) await writeFile(join(dir, name), bytes);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("readStoredOriginal on the fs driver", () => {
  it("reads a file up to HEAD_BYTES whole", async () => {
    expect(files["small.jpg"]?.length).toBeLessThan(HEAD_BYTES);
    expect(sameBytes(await readStoredOriginal(storage, "small.jpg", 1 << 30), files["small.jpg"])).toBe(true);
  });

  it("reads only the head of a larger JPEG, whose header it holds, and hands libvips the path", async () => {
    expect(files["photo.jpg"]?.length).toBeGreaterThan(2 * HEAD_BYTES);
    const input = await readStoredOriginal(storage, "photo.jpg", 1 << 30);
    expect(isImageFile(input)).toBe(true);
    if (!isImageFile(input)) return;
    expect(input.path).toBe(join(dir, "photo.jpg"));
    expect(sameBytes(input.head, files["photo.jpg"]?.subarray(0, HEAD_BYTES))).toBe(true);
  });

  it("reads a JPEG whole when its header runs past the head, and a WebP, whose parser needs its end", async () => {
    for (const name of ["long-header.jpg", "photo.webp"]) {
      expect(files[name]?.length).toBeGreaterThan(HEAD_BYTES);
      expect(sameBytes(await readStoredOriginal(storage, name, 1 << 30), files[name])).toBe(true);
    }
  });

  it("decodes a file past the in-memory limit from its path, its head read all the same", async () => {
    const input = await readStoredOriginal(storage, "photo.webp", HEAD_BYTES + 1);
    expect(isImageFile(input) && sameBytes(input.head, files["photo.webp"]?.subarray(0, HEAD_BYTES))).toBe(
      true,
    );
  });

  it("answers ObjectNotFoundError for a missing file", async () => {
    await expect(readStoredOriginal(storage, "gone.jpg", 1 << 30)).rejects.toBeInstanceOf(
      ObjectNotFoundError,
    );
  });

  it("renders from the path and head exactly what it renders from the bytes, whatever the head holds", async () => {
    const bytes = files["photo.jpg"] as Buffer;
    const path = join(dir, "photo.jpg");
    const fromBytes = await renderVariant({ input: bytes, transform: "w_120,f_webp" });
    // The head the reader hands over, and one too short for the header (libvips reads it then).
    for (const head of [bytes.subarray(0, HEAD_BYTES), bytes.subarray(0, 40)]) {
      const fromFile = await renderVariant({ input: { path, head }, transform: "w_120,f_webp" });
      expect(sameBytes(fromFile.body, fromBytes.body)).toBe(true);
      expect(fromFile).toMatchObject({ width: 120, height: 90, mimeType: "image/webp" });
    }
  });
});

describe("VariantRenderer, an original decoded from its path", () => {
  /** A JPEG whose header is whole in the head and whose scan is cut short: libvips fails on it. */
  const truncatedName = "truncated.jpg";

  const rendererOver = (exists: boolean | "unknown") =>
    new VariantRenderer({
      storage: {
        ...storage,
        stat: async () => {
          if (exists === "unknown") throw new Error("EACCES");
          return exists ? { size: 1 } : null;
        },
      } as never,
      gate: new RenderGate({ concurrency: 1, queue: 1, waitMs: 1000 }),
      limits: { maxInputBytes: 1 << 30 } as never,
      variants: { admits: () => false } as unknown as VariantStore,
      log: { warn: () => {} } as never,
    });

  const render = (exists: boolean | "unknown") =>
    rendererOver(exists).render({
      file: { storageKey: truncatedName, thumbnailKey: null } as never,
      owner: { fileId: "f" },
      canonical: "w_100",
      accept: undefined,
      cacheKey: `variant-${exists}`,
    });

  beforeAll(async () => {
    await writeFile(join(dir, truncatedName), (files["photo.jpg"] as Buffer).subarray(0, 2 * HEAD_BYTES));
  });

  it("is a missing file (404) when the decoder fails because the file was deleted meanwhile", async () => {
    await expect(render(false)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it("is the decoder's error when the file is still there, or when asking whether it is fails", async () => {
    await expect(render(true)).rejects.toBeInstanceOf(MediaError);
    await expect(render("unknown")).rejects.toBeInstanceOf(MediaError);
  });
});
