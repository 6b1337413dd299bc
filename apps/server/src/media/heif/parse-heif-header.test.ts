import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  auxC,
  box,
  buildHeif,
  ftyp,
  fullBox,
  gridImage,
  irot,
  ispe,
  singleImage,
} from "../../../test/fixtures/heif/build-heif.js";
import { resolveMediaLimits } from "../media-limits.js";
import { MAX_HEIF_BOXES } from "./heif-boxes.js";
import { heifKind } from "./heif-brands.js";
import { parseHeifHeader } from "./parse-heif-header.js";
import { MAX_GRID_TILES, readHeifHeader } from "./read-heif-header.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/heif/${name}`, import.meta.url));
const malformed = { name: "MediaError", code: "UNSUPPORTED_MEDIA_TYPE" };
const tooLarge = { name: "MediaError", code: "IMAGE_TOO_LARGE" };

describe("heifKind", () => {
  it.each([
    ["heic", [], { format: "heic", mimeType: "image/heic" }],
    ["heix", ["mif1"], { format: "heic", mimeType: "image/heic" }],
    ["hevc", ["msf1"], { format: "heic", mimeType: "image/heic" }],
    ["mif1", ["heic", "miaf"], { format: "heic", mimeType: "image/heic" }],
    ["msf1", ["hevx"], { format: "heic", mimeType: "image/heic" }],
    ["mif1", ["miaf"], { format: "heic", mimeType: "image/heif" }],
    ["avif", ["mif1", "miaf"], { format: "avif" }],
    ["avis", ["msf1"], { format: "avif" }],
    // A generic HEIF whose brands say AV1 is an AVIF, even beside a HEVC brand.
    ["mif1", ["avif"], { format: "avif" }],
    ["mif1", ["heic", "avif"], { format: "avif" }],
    ["isom", ["mif1", "heic"], undefined],
    ["mp42", ["isom"], undefined],
  ] as const)("major %s, compatible %j: %j", (major, compatible, expected) => {
    expect(heifKind(ftyp(major, [...compatible]))).toEqual(expected);
  });

  it("reads the brands of real files", () => {
    expect(heifKind(fixture("photo-64x48.heic"))).toEqual({ format: "heic", mimeType: "image/heic" });
    expect(heifKind(fixture("photo-64x48.avif"))).toEqual({ format: "avif" });
  });
});

describe("parseHeifHeader", () => {
  it("reads heif-enc's files: a single image and a grid", () => {
    expect(parseHeifHeader(fixture("photo-1280x800.heic"))).toEqual({
      mimeType: "image/heic",
      width: 1280,
      height: 800,
      exifOrientation: 1,
      hasAlpha: false,
      pages: 1,
      codedPixels: 1280 * 800,
    });
    // heif-enc writes a 64×48 image as a grid of one 64×64 tile, cropped by the grid's ispe.
    expect(parseHeifHeader(fixture("photo-64x48.heic"))).toMatchObject({
      width: 64,
      height: 48,
      codedPixels: 64 * 48,
      grid: { tiles: 1, tilePixels: 64 * 64 },
    });
  });

  it("turns the size by the irot property, a quarter turn swapping width and height", () => {
    expect(parseHeifHeader(fixture("photo-1280x800-irot90.heic"))).toMatchObject({
      width: 800,
      height: 1280,
    });
    expect(parseHeifHeader(singleImage(400, 300, [irot(1)]))).toMatchObject({ width: 300, height: 400 });
    expect(parseHeifHeader(singleImage(400, 300, [irot(2)]))).toMatchObject({ width: 400, height: 300 });
    expect(parseHeifHeader(singleImage(400, 300, [irot(3)]))).toMatchObject({ width: 300, height: 400 });
  });

  it("crops by clap before or after the rotation, in ipma order", () => {
    const fraction = (n: number) => [n, 1];
    const u32s = (values: number[]) => {
      const out = new Uint8Array(values.length * 4);
      for (const [index, value] of values.entries()) new DataView(out.buffer).setUint32(index * 4, value);
      return out;
    };
    const clap = box("clap", [u32s([...fraction(200), ...fraction(100), 0, 1, 0, 1])]);
    expect(parseHeifHeader(singleImage(400, 300, [clap, irot(1)]))).toMatchObject({
      width: 100,
      height: 200,
    });
    expect(parseHeifHeader(singleImage(400, 300, [irot(1), clap]))).toMatchObject({
      width: 200,
      height: 100,
    });
  });

  it("says image/heif for a HEIF without a HEVC brand", () => {
    const file = buildHeif({
      major: "mif1",
      compatible: ["miaf"],
      primary: 1,
      items: [{ id: 1, type: "hvc1", properties: [ispe(8, 8)] }],
    });
    expect(parseHeifHeader(file).mimeType).toBe("image/heif");
  });

  it("finds an alpha plane: an auxl image of the primary with an alpha auxC", () => {
    const file = buildHeif({
      primary: 1,
      items: [
        { id: 1, type: "hvc1", properties: [ispe(8, 8)] },
        { id: 2, type: "hvc1", properties: [ispe(8, 8), auxC("urn:mpeg:hevc:2015:auxid:1")] },
      ],
      references: [{ type: "auxl", from: 2, to: [1] }],
    });
    expect(parseHeifHeader(file).hasAlpha).toBe(true);
    expect(parseHeifHeader(singleImage(8, 8)).hasAlpha).toBe(false);
  });

  it("refuses a truncated file at every length", () => {
    const file = fixture("photo-1280x800.heic");
    for (const length of [0, 12, 24, 40, 100, 300, 600, file.length - 1]) {
      expect(() => parseHeifHeader(file.subarray(0, length)), `cut at ${length}`).toThrow(
        expect.objectContaining(malformed),
      );
    }
  });

  it("refuses box sizes that lie: past the container, under the header, a 64-bit size past the file", () => {
    const head = ftyp("heic", ["mif1"]);
    const cases = [
      Buffer.concat([head, box("meta", [new Uint8Array(8)], 1_000_000)]),
      Buffer.concat([head, box("meta", [new Uint8Array(8)], 4)]),
      Buffer.concat([
        head,
        new Uint8Array([0, 0, 0, 1]),
        Buffer.from("meta"),
        new Uint8Array([0xff, 0, 0, 0, 0, 0, 0, 0]),
      ]),
      // An ispe whose box claims the 8 bytes of width and height but holds 4.
      buildHeif({
        primary: 1,
        items: [{ id: 1, type: "hvc1", properties: [fullBox("ispe", 0, 0, [new Uint8Array(4)])] }],
      }),
    ];
    for (const [index, file] of cases.entries()) {
      expect(() => parseHeifHeader(file), `case ${index}`).toThrow(expect.objectContaining(malformed));
    }
  });

  it("refuses a primary image it cannot decode or size: not HEVC, no ispe, a property that does not exist", () => {
    const av1 = buildHeif({ primary: 1, items: [{ id: 1, type: "av01", properties: [ispe(8, 8)] }] });
    expect(() => parseHeifHeader(av1)).toThrow(/only HEVC/);
    expect(() => parseHeifHeader(singleImage(0, 0))).toThrow(expect.objectContaining(malformed));
    const noIspe = buildHeif({ primary: 1, items: [{ id: 1, type: "hvc1", properties: [irot(1)] }] });
    expect(() => parseHeifHeader(noIspe)).toThrow(/no ispe/);
    const missingPrimary = buildHeif({
      primary: 7,
      items: [{ id: 1, type: "hvc1", properties: [ispe(8, 8)] }],
    });
    expect(() => parseHeifHeader(missingPrimary)).toThrow(/primary item 7/);
  });

  it("refuses a file of more boxes than the walk visits", () => {
    const tiny = box("free");
    const file = Buffer.concat([
      ftyp("heic", ["mif1"]),
      ...Array.from({ length: MAX_HEIF_BOXES + 1 }, () => tiny),
    ]);
    expect(() => parseHeifHeader(file)).toThrow(/more than 20000 boxes/);
  });

  it("never descends into a nesting bomb: 100,000 boxes deep is one box to the walk", () => {
    const depth = 100_000;
    const nested = Buffer.alloc(depth * 8);
    for (let level = 0; level < depth; level += 1) {
      nested.writeUInt32BE((depth - level) * 8, level * 8);
      nested.write("meta", level * 8 + 4, "latin1");
    }
    const file = Buffer.concat([ftyp("heic", ["mif1"]), nested]);
    expect(() => parseHeifHeader(file)).toThrow(expect.objectContaining(malformed));
  });

  it("refuses a grid whose tiles are not HEVC images", () => {
    const file = buildHeif({
      primary: 1,
      items: [
        { id: 1, type: "grid", properties: [ispe(64, 64)] },
        { id: 2, type: "jpeg", properties: [ispe(64, 64)] },
      ],
      references: [{ type: "dimg", from: 1, to: [2] }],
    });
    expect(() => parseHeifHeader(file)).toThrow(/not an HEVC image/);
  });
});

describe("readHeifHeader limits", () => {
  const limits = resolveMediaLimits({ maxInputPixels: 50_000_000 });

  it("passes a phone photo's grid: 4032×3024 in 48 tiles of 512×512", async () => {
    await expect(readHeifHeader(gridImage(4032, 3024, 48), limits)).resolves.toMatchObject({
      width: 4032,
      height: 3024,
      grid: { tiles: 48, tilePixels: 48 * 512 * 512 },
    });
  });

  it("refuses a huge declared ispe as IMAGE_TOO_LARGE", async () => {
    await expect(readHeifHeader(singleImage(100_000, 100_000), limits)).rejects.toMatchObject(tooLarge);
    await expect(readHeifHeader(gridImage(0xffffffff, 0xffffffff, 1), limits)).rejects.toMatchObject(
      tooLarge,
    );
  });

  it("refuses thousands of tiles, and tiles that together hold more pixels than the limit", async () => {
    await expect(readHeifHeader(gridImage(64, 64, MAX_GRID_TILES + 1, 16), limits)).rejects.toThrow(
      /grid of 1025 tiles/,
    );
    // A small grid whose few tiles are each enormous.
    await expect(readHeifHeader(gridImage(64, 64, 4, 8192), limits)).rejects.toMatchObject(tooLarge);
  });
});
