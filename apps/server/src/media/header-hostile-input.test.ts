import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { orientedJpeg, pngBomb } from "../../test/support/test-images.js";
import { resolveMediaLimits } from "./media-limits.js";
import { openImage } from "./open-image.js";
import { parseRasterHeader } from "./parse-raster-header.js";
import type { RasterFormat } from "./raster-format.js";
import { readHeaderWithLibvips, readImageHeader } from "./read-image-header.js";

const limits = resolveMediaLimits();
const CORRUPT = {
  code: "UNSUPPORTED_MEDIA_TYPE",
  message: "image could not be decoded: it is corrupt or truncated",
};
const BOMB = { code: "IMAGE_TOO_LARGE", message: "image is larger than the 100000000-pixel input limit" };

async function outcome(read: Promise<unknown>) {
  return read.then(
    (header) => ({ header }),
    (error: unknown) => ({
      refused: { code: (error as { code?: string }).code, message: (error as Error).message },
    }),
  );
}
/** The header read as uploads run it, checked against libvips' own verdict on the same bytes. */
async function readBoth(bytes: Buffer, format: RasterFormat) {
  const read = await outcome(readImageHeader(bytes, () => openImage(bytes, limits), format, limits));
  expect(read).toEqual(await outcome(readHeaderWithLibvips(openImage(bytes, limits), format, limits)));
  return read;
}

const jpeg = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: "#c63" } })
    .jpeg()
    .toBuffer();
/** The offset of a JPEG marker's 0xFF. */
const markerAt = (bytes: Buffer, marker: number) => bytes.indexOf(Buffer.from([0xff, marker]));

describe("header parsers on hostile input", () => {
  it("refuses a JPEG declaring 65535×65535 or 0×0 as libvips does (corrupt), never as a bomb", async () => {
    for (const side of [65535, 0]) {
      const bytes = Buffer.from(await jpeg());
      const sof = markerAt(bytes, 0xc0);
      bytes.writeUInt16BE(side, sof + 5);
      bytes.writeUInt16BE(side, sof + 7);
      expect(parseRasterHeader(bytes, "jpeg"), `${side}`).toBeUndefined();
      expect(await readBoth(bytes, "jpeg")).toEqual({ refused: CORRUPT });
    }
  });

  it("refuses a PNG bomb (65535×65535) from its own parse, before libvips sees it", async () => {
    const bomb = pngBomb(65535, 65535);
    expect(parseRasterHeader(bomb, "png")).toMatchObject({ width: 65535, height: 65535 });
    expect(await readBoth(bomb, "png")).toEqual({ refused: BOMB });
    expect(parseRasterHeader(pngBomb(0, 0), "png")).toBeUndefined();
    expect(await readBoth(pngBomb(0, 0), "png")).toEqual({ refused: CORRUPT });
  });

  it("leaves a GIF screen or WebP canvas of 65535 a side to libvips, with libvips' verdict", async () => {
    const gif = Buffer.from(
      await sharp({ create: { width: 4, height: 4, channels: 3, background: "#fff" } })
        .gif()
        .toBuffer(),
    );
    gif.writeUInt16LE(65535, 6);
    gif.writeUInt16LE(65535, 8);
    expect(parseRasterHeader(gif, "gif")).toBeUndefined();
    await readBoth(gif, "gif");
    const webp = Buffer.from(
      await sharp({ create: { width: 4, height: 4, channels: 4, background: "#fff8" } })
        .webp()
        .toBuffer(),
    );
    expect(webp.toString("latin1", 12, 16)).toBe("VP8X");
    webp.writeUIntLE(65534, 24, 3);
    webp.writeUIntLE(65534, 27, 3);
    expect(parseRasterHeader(webp, "webp")).toBeUndefined();
    expect(await readBoth(webp, "webp")).toEqual({ refused: CORRUPT });
  });

  it("stops walking a JPEG whose segment chain is huge, and libvips refuses it as before", async () => {
    const original = await jpeg();
    const comments = Buffer.alloc(4 * 200_000);
    for (let at = 0; at < comments.length; at += 4) comments.set([0xff, 0xfe, 0x00, 0x02], at);
    const bytes = Buffer.concat([original.subarray(0, 2), comments, original.subarray(2)]);
    expect(parseRasterHeader(bytes, "jpeg")).toBeUndefined();
    await readBoth(bytes, "jpeg");
  });

  it("refuses a JPEG whose segment lengths would loop a naive parser (0, 1) or overrun the file", async () => {
    for (const length of [0, 1, 0xffff]) {
      const bytes = Buffer.from(await jpeg());
      bytes.writeUInt16BE(length, markerAt(bytes, 0xdb) + 2);
      expect(parseRasterHeader(bytes, "jpeg"), `${length}`).toBeUndefined();
      expect(await readBoth(bytes, "jpeg")).toEqual({ refused: CORRUPT });
    }
  });

  it("reads the orientation of an EXIF block with a bad IFD offset or entry count as libvips does", async () => {
    const original = await orientedJpeg(40, 30, 6);
    const tiff = original.indexOf(Buffer.from("Exif\0\0")) + 6;
    const little = original[tiff] === 0x49;
    const ifd = little ? original.readUInt32LE(tiff + 4) : original.readUInt32BE(tiff + 4);
    const corruptions: [string, (bytes: Buffer) => void][] = [
      [
        "IFD0 past the block",
        (b) => (little ? b.writeUInt32LE(60_000, tiff + 4) : b.writeUInt32BE(60_000, tiff + 4)),
      ],
      [
        "IFD0 inside the header",
        (b) => (little ? b.writeUInt32LE(2, tiff + 4) : b.writeUInt32BE(2, tiff + 4)),
      ],
      ["65535 entries", (b) => b.writeUInt16BE(0xffff, tiff + ifd)],
    ];
    for (const [name, corrupt] of corruptions) {
      const bytes = Buffer.from(original);
      corrupt(bytes);
      expect(parseRasterHeader(bytes, "jpeg"), name).toBeUndefined();
      expect(await readBoth(bytes, "jpeg"), name).toHaveProperty("header");
    }
  });

  it("refuses a GIF whose sub-block chain runs past the end, as libvips does", async () => {
    const header = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0];
    const frame = [0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2];
    const bytes = Buffer.from([...header, ...frame, ...new Array(3000).fill(0xff)]);
    expect(parseRasterHeader(bytes, "gif")).toBeUndefined();
    await readBoth(bytes, "gif");
  });

  it("reads bytes only with the parser of the sniffed format: a JPEG sniffed as PNG is refused", async () => {
    const bytes = await jpeg();
    expect(parseRasterHeader(bytes, "png")).toBeUndefined();
    expect(await readBoth(bytes, "png")).toEqual({
      refused: { code: "UNSUPPORTED_MEDIA_TYPE", message: "content is not a valid png image" },
    });
  });

  it("leaves a PNG with a bad CRC or an unknown critical chunk to libvips", async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const badCrc = Buffer.from(png);
    badCrc[29] = (badCrc[29] as number) ^ 0xff; // IHDR's CRC
    const unknown = Buffer.concat([png.subarray(0, 33), chunk("ABCD", Buffer.alloc(3)), png.subarray(33)]);
    for (const bytes of [badCrc, unknown]) {
      expect(parseRasterHeader(bytes, "png")).toBeUndefined();
      await readBoth(bytes, "png");
    }
  });
});

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const framing = Buffer.alloc(8);
  framing.writeUInt32BE(data.length, 0);
  framing.writeUInt32BE(crc32(body), 4);
  return Buffer.concat([framing.subarray(0, 4), body, framing.subarray(4)]);
}
