// Placeholders (issue #34 part 3): a JPEG's and a PNG's details carry a ThumbHash, a dominant
// colour and a tiny WebP data URL once the background sweep has run (polled, never timed); list
// rows carry the first two only; a PDF never gets one; an undecodable image and one over the
// pixel limit end with null after one try, never retried; copies of the same bytes share the
// first one's. One app runs the real sweep timer; another runs with workers off and sweeps by hand.
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { thumbHashToAverageRGBA, thumbHashToRGBA } from "thumbhash";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveMediaLimits } from "../src/media/media-limits.js";
import { computePlaceholder, MAX_DATA_URL_BYTES } from "../src/placeholders/compute-placeholder.js";
import { sweepPlaceholders } from "../src/placeholders/placeholder-sweep.js";
import { complete, start, uploadAll } from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { pattern, pngBomb } from "./support/test-images.js";
import { directUpload, PDF, uploaded, waitFor } from "./uploads-helpers.js";

interface Placeholder {
  thumbhash: string;
  color: string;
  data_url: string;
}

const RED = { r: 220, g: 30, b: 40 };
const BLUE = { r: 20, g: 60, b: 210 };

/** 160×120: the left 70 % red, the rest blue, so the dominant colour (red) is not the average. */
function mostlyRed(format: "jpeg" | "png"): Promise<Buffer> {
  const width = 160;
  const height = 120;
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = x < width * 0.7 ? RED : BLUE;
      data.set([c.r, c.g, c.b], (y * width + x) * 3);
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

const distance = (a: number[], b: number[]) => Math.max(...a.map((v, i) => Math.abs(v - (b[i] ?? 0))));
const rgbOf = (hex: string) => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));

/** The mean colour of decoded RGBA pixels, 0..255. */
function meanRgb({ rgba }: { rgba: Uint8Array }): number[] {
  const sum = [0, 0, 0];
  for (let i = 0; i < rgba.length; i += 4) for (let c = 0; c < 3; c++) sum[c]! += rgba[i + c]!;
  return sum.map((s) => s / (rgba.length / 4));
}

async function sourceMean(image: Buffer): Promise<number[]> {
  const { channels } = await sharp(image).stats();
  return channels.slice(0, 3).map((channel) => channel.mean);
}

async function expectPlaceholderOf(placeholder: Placeholder, image: Buffer) {
  const hash = Buffer.from(placeholder.thumbhash, "base64");
  // The ThumbHash decodes to an image whose average colour is the source's.
  expect(distance(meanRgb(thumbHashToRGBA(hash)), await sourceMean(image))).toBeLessThan(25);
  const average = thumbHashToAverageRGBA(hash);
  expect(distance([average.r * 255, average.g * 255, average.b * 255], await sourceMean(image))).toBeLessThan(
    25,
  );
  // The colour is the dominant one (red), not the average (a purple).
  expect(placeholder.color).toMatch(/^#[0-9a-f]{6}$/);
  expect(distance(rgbOf(placeholder.color), [RED.r, RED.g, RED.b])).toBeLessThan(24);
  expect(placeholder.data_url.startsWith("data:image/webp;base64,")).toBe(true);
  expect(placeholder.data_url.length).toBeLessThanOrEqual(MAX_DATA_URL_BYTES);
  const webp = Buffer.from(placeholder.data_url.slice("data:image/webp;base64,".length), "base64");
  const meta = await sharp(webp).metadata();
  expect(meta.format).toBe("webp");
  // The aspect ratio survives (160×120).
  expect(Math.abs((meta.width ?? 0) / (meta.height ?? 1) - 4 / 3)).toBeLessThan(0.2);
}

describe("placeholders, with the sweep timer running", () => {
  let t: TestApp;
  const api = (url: string) => t.app.inject({ method: "GET", url, headers: { "x-api-key": t.keys.private } });
  const detailsOf = async (fileNo: string) =>
    (await api(`/api/v1/files/${fileNo}`)).json().data as { placeholder: Placeholder | null };

  beforeAll(async () => {
    t = await createTestApp({ config: { workers: true, jobPollIntervalMs: 50 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const format of ["jpeg", "png"] as const) {
    it(`a ${format} gets a placeholder in its details and list row, shortly after its upload`, async () => {
      const image = await mostlyRed(format);
      const file = uploaded(
        await directUpload(t, { file_name: `red.${format}`, folder: format }, { content: image }),
      );
      const placeholder = await waitFor(async () => (await detailsOf(file.file_no)).placeholder ?? undefined);
      await expectPlaceholderOf(placeholder, image);

      const rows = (await api(`/api/v1/files?search=red.${format}`)).json().files as Array<
        Record<string, unknown>
      >;
      const row = rows.find((r) => r.file_no === file.file_no);
      expect(row?.placeholder).toEqual({ thumbhash: placeholder.thumbhash, color: placeholder.color });
    });
  }

  it("a PDF has placeholder null in its upload response, details and list row, and is never pending", async () => {
    const file = uploaded(await directUpload(t, { file_name: "doc.pdf" }, { content: PDF }));
    expect(file.placeholder).toBeNull();
    expect((await detailsOf(file.file_no)).placeholder).toBeNull();
    const rows = (await api("/api/v1/files?search=doc.pdf")).json().files as Array<Record<string, unknown>>;
    expect(rows.find((r) => r.file_no === file.file_no)?.placeholder).toBeNull();
    const row = await t.app.db.file.findUniqueOrThrow({ where: { fileNo: BigInt(file.file_no) } });
    expect(row.placeholderAttempts).toBeNull();
  });
});

describe("placeholders, swept by hand", () => {
  let t: TestApp;
  const sweep = (limits = t.config.mediaLimits) =>
    sweepPlaceholders({ db: t.app.db, storage: t.app.storage, limits });
  const rowOf = (fileNo: string) => t.app.db.file.findUniqueOrThrow({ where: { fileNo: BigInt(fileNo) } });

  beforeAll(async () => {
    t = await createTestApp({ config: { workers: false } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("a fresh upload is pending with placeholder null; the sweep fills it; copies share it", async () => {
    const image = await mostlyRed("jpeg");
    const first = uploaded(await directUpload(t, { file_name: "a.jpg" }, { content: image }));
    expect(first.placeholder).toBeNull();
    expect((await rowOf(first.file_no)).placeholderAttempts).toBe(0);
    // A copy uploaded before the sweep has run waits with it; the sweep decodes once for both.
    const early = uploaded(await directUpload(t, { file_name: "a-early.jpg" }, { content: image }));
    expect((await rowOf(early.file_no)).placeholderAttempts).toBe(0);
    const result = await sweep();
    expect(result).toMatchObject({ computed: 2, copied: 0, unusable: [] });
    const row = await rowOf(first.file_no);
    expect(row.placeholderAttempts).toBeNull();
    expect(row.placeholderThumbhash).not.toBeNull();
    expect((await rowOf(early.file_no)).placeholderThumbhash).toBe(row.placeholderThumbhash);

    // Copies uploaded once it is known take it in the upload itself: in the response, and
    // nothing left for the sweep.
    const copies = [
      uploaded(await directUpload(t, { file_name: "b.jpg" }, { content: image })),
      uploaded(await directUpload(t, { file_name: "c.jpg" }, { content: image })),
    ];
    for (const copy of copies) {
      expect(copy.placeholder?.thumbhash).toBe(row.placeholderThumbhash);
      expect((await rowOf(copy.file_no)).placeholderAttempts).toBeNull();
    }
    expect(await sweep()).toMatchObject({ computed: 0, copied: 0, unusable: [] });
  });

  it("a HEIC (decoded by libheif, like delivery does) gets its placeholder too", async () => {
    const heic = readFileSync(new URL("./fixtures/heif/photo-1280x800.heic", import.meta.url));
    const file = uploaded(await directUpload(t, { file_name: "phone.heic" }, { content: heic }));
    expect((await rowOf(file.file_no)).placeholderAttempts).toBe(0);
    const result = await sweep();
    expect(result.unusable).toEqual([]);
    const row = await rowOf(file.file_no);
    expect(row.placeholderThumbhash).not.toBeNull();
    expect(row.placeholderDataUrl?.length).toBeLessThanOrEqual(MAX_DATA_URL_BYTES);
    const webp = Buffer.from(row.placeholderDataUrl!.split(",")[1]!, "base64");
    const meta = await sharp(webp).metadata();
    expect(Math.abs((meta.width ?? 0) / (meta.height ?? 1) - 1280 / 800)).toBeLessThan(0.2);
  });

  it("a sweep past its time budget leaves the rest for the next one", async () => {
    const a = uploaded(
      await directUpload(t, { file_name: "late-a.png" }, { content: await pattern(64, 48) }),
    );
    const b = uploaded(
      await directUpload(t, { file_name: "late-b.png" }, { content: await pattern(48, 64) }),
    );
    const first = await sweepPlaceholders({
      db: t.app.db,
      storage: t.app.storage,
      limits: t.config.mediaLimits,
      maxSweepMs: 0,
    });
    // The deadline has passed before the first decode: nothing decoded, nothing given up.
    expect(first).toMatchObject({ computed: 0, unusable: [], retried: 0 });
    expect((await rowOf(a.file_no)).placeholderAttempts).toBe(0);
    expect((await sweep()).computed).toBeGreaterThanOrEqual(2);
    expect((await rowOf(b.file_no)).placeholderThumbhash).not.toBeNull();
  });

  it("a truncated JPEG ends with placeholder null after one sweep and is not tried again", async () => {
    const whole = await sharp(await pattern(400, 300))
      .jpeg()
      .toBuffer();
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    const file = uploaded(await directUpload(t, { file_name: "cut.jpg" }, { content: cut }));
    // The header is whole, so the upload is an image, pending like any other.
    expect(file.width).toBe(400);
    expect((await rowOf(file.file_no)).placeholderAttempts).toBe(0);
    const result = await sweep();
    expect(result.unusable).toContainEqual({ fileId: file.id, reason: "UNSUPPORTED_MEDIA_TYPE" });
    const row = await rowOf(file.file_no);
    expect(row.placeholderAttempts).toBeNull();
    expect(row.placeholderThumbhash).toBeNull();
    // Nothing is left to do: the next sweep does not see it.
    expect((await sweep()).unusable).toEqual([]);
  });

  it("an image over the input pixel limit is refused from its header, not decoded, and ends with null", async () => {
    // 3 MP stored while the limit allowed it; the sweep runs under a 1 MP limit.
    const file = uploaded(
      await directUpload(t, { file_name: "big.png" }, { content: await pattern(2000, 1500) }),
    );
    const result = await sweep(resolveMediaLimits({ ...t.config.mediaLimits, maxInputPixels: 1_000_000 }));
    expect(result.unusable).toContainEqual({ fileId: file.id, reason: "IMAGE_TOO_LARGE" });
    expect((await rowOf(file.file_no)).placeholderAttempts).toBeNull();
  });

  it("a multipart upload's complete result carries placeholder null; the sweep then fills it", async () => {
    const image = await pattern(300, 200);
    const session = await start(t, { file_name: "parts.png", size: image.length, format: "image/png" });
    await uploadAll(t, session, image);
    const done = await complete(t, session.session_id);
    expect(done.placeholder).toBeNull();
    expect((await rowOf(done.file_no)).placeholderAttempts).toBe(0);
    await sweep();
    expect((await rowOf(done.file_no)).placeholderThumbhash).not.toBeNull();
  });

  it("a pixel bomb (40000×40000 declared in a few hundred bytes) is refused at upload: nothing to decode later", async () => {
    const res = await directUpload(t, { file_name: "bomb.png" }, { content: pngBomb(40_000, 40_000) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorCode: "IMAGE_TOO_LARGE" });
    expect(await t.app.db.file.count({ where: { name: "bomb.png" } })).toBe(0);
  });

  it("an object that cannot be read is tried again, and given up after a few attempts", async () => {
    const file = uploaded(
      await directUpload(t, { file_name: "gone.png" }, { content: await mostlyRed("png") }),
    );
    const row = await rowOf(file.file_no);
    // A storage driver whose reads fail (an object store that is down).
    const failing = Object.create(t.app.storage, {
      localPath: { value: undefined },
      get: { value: () => Promise.reject(new Error("storage unavailable")) },
    });
    const sweepFailing = () =>
      sweepPlaceholders({ db: t.app.db, storage: failing, limits: t.config.mediaLimits });
    expect((await sweepFailing()).retried).toBe(1);
    expect((await rowOf(file.file_no)).placeholderAttempts).toBe(1);
    let rounds = 1;
    while ((await rowOf(file.file_no)).placeholderAttempts !== null) {
      await sweepFailing();
      rounds++;
      expect(rounds).toBeLessThanOrEqual(5);
    }
    expect((await rowOf(file.file_no)).placeholderThumbhash).toBeNull();
    expect(row.id).toBe(file.id);
  });

  it("with TROVE_PLACEHOLDERS off, a new image is not marked for the sweep", async () => {
    const off = await createTestApp({ config: { workers: false, placeholders: false } });
    try {
      const file = uploaded(
        await directUpload(off, { file_name: "off.png" }, { content: await mostlyRed("png") }),
      );
      const row = await off.app.db.file.findUniqueOrThrow({ where: { fileNo: BigInt(file.file_no) } });
      expect(row.placeholderAttempts).toBeNull();
      expect(file.placeholder).toBeNull();
    } finally {
      await off.close();
    }
  });
});

describe("computePlaceholder", () => {
  it("keeps the data URL within 1 KiB for an image of pure noise, the hardest to compress", async () => {
    const width = 600;
    const height = 400;
    const noise = Buffer.alloc(width * height * 4);
    for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(Math.random() * 256);
    const image = await sharp(noise, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
    const placeholder = await computePlaceholder(image, resolveMediaLimits());
    expect(placeholder.dataUrl.length).toBeLessThanOrEqual(MAX_DATA_URL_BYTES);
    expect(placeholder.dataUrl.startsWith("data:image/webp;base64,")).toBe(true);
    expect(placeholder.thumbhash.length).toBeLessThanOrEqual(64);
  });
});
