import { describe, expect, it } from "vitest";
import { isEmbeddedMetadataError } from "./embedded-metadata-error.js";
import {
  FREE_BOX_TYPE,
  findVideoMetadataBoxes,
  MAX_VIDEO_BOXES,
  type VideoByteSource,
} from "./strip-isobmff-video.js";
import type { TiffStripMode } from "./tiff-ifd.js";

/** An ISO-BMFF box: 32-bit size, type, payload. */
function box(type: string, ...payload: (Buffer | string)[]): Buffer {
  const body = Buffer.concat(
    payload.map((part) => (typeof part === "string" ? Buffer.from(part, "latin1") : part)),
  );
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length);
  header.write(type, 4, "latin1");
  return Buffer.concat([header, body]);
}

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const FULL = u32(0);
const FTYP = box("ftyp", "isom", u32(512), "isomiso2avc1mp41");
const MDAT = box("mdat", Buffer.alloc(64, 7));
const XMP_UUID = Buffer.from("be7acfcb97a942e89c71999491e3afac", "hex");

function source(bytes: Buffer): VideoByteSource {
  return { length: bytes.length, read: async (offset, length) => bytes.subarray(offset, offset + length) };
}

/** The file with every found box renamed, and the types (in file order) that were renamed. */
async function strip(file: Buffer, mode: TiffStripMode): Promise<{ out: Buffer; renamed: string[] }> {
  const offsets = await findVideoMetadataBoxes(source(file), mode);
  const out = Buffer.from(file);
  const renamed = offsets.map((at) => file.subarray(at, at + 4).toString("latin1"));
  for (const at of offsets) out.set(FREE_BOX_TYPE, at);
  return { out, renamed };
}

async function refusal(file: Buffer): Promise<string> {
  const error = await findVideoMetadataBoxes(source(file), "strip").catch((caught: unknown) => caught);
  expect(isEmbeddedMetadataError(error)).toBe(true);
  return (error as Error).message;
}

const udta = box(
  "udta",
  box("\u00a9xyz", "+48.8584+002.2945/"),
  box("loci", "Paris"),
  box("\u00a9mak", "Phone"),
  box("\u00a9mod", "X1"),
  box("\u00a9swr", "1.0"),
  box("\u00a9nam", "Title"),
);

describe("findVideoMetadataBoxes", () => {
  it("renames location boxes in both modes and device boxes only with strip, wherever the udta sits", async () => {
    const file = Buffer.concat([
      FTYP,
      MDAT,
      box("moov", box("mvhd", Buffer.alloc(100)), box("trak", box("mdia", udta), udta), udta),
    ]);
    const location = await strip(file, "strip-location");
    expect(location.renamed).toEqual(["\u00a9xyz", "loci", "\u00a9xyz", "loci", "\u00a9xyz", "loci"]);
    const all = await strip(file, "strip");
    expect(all.renamed.filter((type) => type === "\u00a9mak")).toHaveLength(3);
    expect(all.renamed).not.toContain("\u00a9nam");
    expect(all.out.includes("+48.8584")).toBe(true); // the bytes stay; no reader looks inside `free`
    expect(all.out.length).toBe(file.length);
    expect(all.out.includes(Buffer.from("\u00a9nam", "latin1"))).toBe(true);
  });

  it("renames Apple keys/ilst items by their key name, in QuickTime and ISO meta boxes", async () => {
    const keyEntry = (name: string) => box("mdta", name);
    const keys = box(
      "keys",
      FULL,
      u32(4),
      keyEntry("com.apple.quicktime.location.ISO6709"),
      keyEntry("com.apple.quicktime.make"),
      keyEntry("com.apple.quicktime.model"),
      keyEntry("com.apple.quicktime.creationdate"),
    );
    const item = (index: number, value: string) => {
      const item = box("xxxx", box("data", u32(1), u32(0), value));
      item.writeUInt32BE(index, 4);
      return item;
    };
    const ilst = box("ilst", item(1, "+48.8584+002.2945/"), item(2, "Phone"), item(3, "X1"), item(4, "2026"));
    const hdlr = box("hdlr", FULL, u32(0), "mdta", Buffer.alloc(13));
    for (const meta of [box("meta", hdlr, keys, ilst), box("meta", FULL, hdlr, keys, ilst)]) {
      const file = Buffer.concat([FTYP, box("moov", meta), MDAT]);
      expect((await strip(file, "strip-location")).renamed).toHaveLength(1);
      expect((await strip(file, "strip")).renamed).toHaveLength(3);
    }
  });

  it("renames ffmpeg's un-prefixed keys (location, make, model) the same way", async () => {
    const keys = box(
      "keys",
      FULL,
      u32(3),
      box("mdta", "location"),
      box("mdta", "make"),
      box("mdta", "encoder"),
    );
    const item = (index: number) => {
      const item = box("xxxx", box("data", u32(1), u32(0), "value"));
      item.writeUInt32BE(index, 4);
      return item;
    };
    const meta = box(
      "meta",
      box("hdlr", FULL, u32(0), "mdta", Buffer.alloc(13)),
      keys,
      box("ilst", item(1), item(2), item(3)),
    );
    const file = Buffer.concat([FTYP, box("moov", box("udta", meta)), MDAT]);
    expect((await strip(file, "strip-location")).renamed).toEqual(["\0\0\0\u0001"]);
    expect((await strip(file, "strip")).renamed).toEqual(["\0\0\0\u0001", "\0\0\0\u0002"]);
  });

  it("drops XMP with strip, and with strip-location only when it names GPS", async () => {
    const xmp = (text: string) => box("uuid", XMP_UUID, text);
    const plain = Buffer.concat([
      FTYP,
      xmp("<x:xmpmeta>creator</x:xmpmeta>"),
      box("moov", box("udta", box("XMP_", "<x/>"))),
    ]);
    expect((await strip(plain, "strip")).renamed).toEqual(["uuid", "XMP_"]);
    expect((await strip(plain, "strip-location")).renamed).toEqual([]);
    const gps = Buffer.concat([FTYP, xmp("<exif:GPSLatitude>48</exif:GPSLatitude>"), MDAT]);
    expect((await strip(gps, "strip-location")).renamed).toEqual(["uuid"]);
    const otherUuid = Buffer.concat([FTYP, box("uuid", Buffer.alloc(16, 1), "GPS"), MDAT]);
    expect((await strip(otherUuid, "strip")).renamed).toEqual([]);
  });

  it("leaves a file without metadata alone, and reads a 64-bit and a to-the-end size", async () => {
    const large = Buffer.concat([u32(1), Buffer.from("mdat"), Buffer.alloc(4), u32(16 + 8), Buffer.alloc(8)]);
    const toEnd = Buffer.concat([u32(0), Buffer.from("mdat"), Buffer.alloc(32)]);
    expect(
      (await strip(Buffer.concat([FTYP, box("moov", box("mvhd")), large, toEnd]), "strip")).renamed,
    ).toEqual([]);
  });

  it("refuses sizes that overrun their container or undercut their header", async () => {
    const overrun = box("moov", udta);
    overrun.writeUInt32BE(overrun.length + 100);
    expect(await refusal(Buffer.concat([FTYP, overrun]))).toMatch(/moov box runs past its container/);
    const inner = Buffer.from(udta);
    inner.writeUInt32BE(inner.length + 1);
    expect(await refusal(Buffer.concat([FTYP, box("moov", inner)]))).toMatch(/udta box runs past/);
    const small = Buffer.concat([FTYP, u32(4), Buffer.from("free")]);
    expect(await refusal(small)).toMatch(/smaller than its own header/);
    const huge = Buffer.concat([FTYP, u32(1), Buffer.from("mdat"), Buffer.from("ffffffffffffffff", "hex")]);
    expect(await refusal(huge)).toMatch(/runs past/);
    expect(await refusal(Buffer.concat([FTYP, Buffer.from([0, 0, 0])]))).toMatch(/cut short/);
  });

  it("bounds the walk: a nesting bomb costs its depth, 10^5 tiny boxes are refused", async () => {
    let nested = box("\u00a9xyz", "deep");
    for (let depth = 0; depth < 2_000; depth++) nested = box("udta", nested);
    expect((await strip(Buffer.concat([FTYP, box("moov", nested)]), "strip")).renamed).toEqual([]);
    const tiny = Buffer.concat([FTYP, ...Array.from({ length: 100_000 }, () => box("free"))]);
    expect(await refusal(tiny)).toContain(`more than ${MAX_VIDEO_BOXES} boxes`);
    const tinyInMoov = box("moov", ...Array.from({ length: 100_000 }, () => box("free")));
    expect(await refusal(Buffer.concat([FTYP, tinyInMoov]))).toContain("boxes");
  });
});
