import { crc32 } from "node:zlib";
import { MAX_HEADER_STEPS, type ParsedHeader } from "./parsed-header.js";
import { readExifOrientation } from "./read-exif-orientation.js";

/**
 * Reads a PNG's header from its bytes: every chunk before the first IDAT, CRCs checked, as
 * libpng's png_read_info reads them (IHDR's fields, PLTE and tRNS placement and lengths, no
 * unknown critical chunk). Alpha is an alpha colour type or a tRNS chunk; orientation comes
 * from an eXIf chunk, as libvips reads it. Returns `undefined` for anything this parser does
 * not vouch for (truncation, a bad CRC, Apple's CgBI, text chunks carrying EXIF, a side over
 * 65535...): the caller then asks libvips, so such files are judged exactly as before.
 */
export function parsePngHeader(bytes: Uint8Array): ParsedHeader | undefined {
  if (!PNG_SIGNATURE.every((byte, index) => bytes[index] === byte)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header: Ihdr | undefined;
  let paletteEntries = 0;
  let transparency = false;
  let exifOrientation = 1;
  let exifSeen = false;
  let pos = PNG_SIGNATURE.length;
  for (let step = 0; step < MAX_HEADER_STEPS; step++) {
    if (pos + 12 > bytes.length) return undefined;
    const length = view.getUint32(pos);
    if (length > 0x7fffffff || pos + 12 + length > bytes.length) return undefined;
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    const data = bytes.subarray(pos + 8, pos + 8 + length);
    if (
      !/^[A-Za-z]{4}$/.test(type) ||
      crc32(bytes.subarray(pos + 4, pos + 8 + length)) !== view.getUint32(pos + 8 + length)
    ) {
      return undefined;
    }
    pos += 12 + length;
    if (header === undefined) {
      if (type !== "IHDR") return undefined;
      header = parseIhdr(data);
      if (header === undefined) return undefined;
      continue;
    }
    switch (type) {
      case "IDAT": {
        if (header.colourType === PALETTE && paletteEntries === 0) return undefined;
        const hasAlpha = header.colourType === GREY_ALPHA || header.colourType === RGBA || transparency;
        return { width: header.width, height: header.height, exifOrientation, hasAlpha, pages: 1 };
      }
      case "PLTE":
        if (paletteEntries > 0 || transparency || length === 0 || length % 3 !== 0 || length > 768)
          return undefined;
        if (header.colourType !== PALETTE && header.colourType !== RGB && header.colourType !== RGBA)
          return undefined;
        paletteEntries = length / 3;
        break;
      case "tRNS":
        if (transparency || !isValidTransparency(header.colourType, length, paletteEntries)) return undefined;
        transparency = true;
        break;
      case "eXIf": {
        const orientation = exifSeen ? undefined : readExifOrientation(data);
        if (orientation === undefined) return undefined;
        exifOrientation = orientation;
        exifSeen = true;
        break;
      }
      case "tEXt":
      case "zTXt":
      case "iTXt":
        // ImageMagick stores EXIF as "Raw profile type exif" text; leave such files to libvips.
        if (startsWithRawProfile(data)) return undefined;
        break;
      default:
        // An unknown critical chunk (upper-case first letter) is an error to libpng.
        if (type.charCodeAt(0) < 0x61) return undefined;
    }
  }
  return undefined;
}

interface Ihdr {
  width: number;
  height: number;
  colourType: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const GREY = 0;
const RGB = 2;
const PALETTE = 3;
const GREY_ALPHA = 4;
const RGBA = 6;
const BIT_DEPTHS: Record<number, number[]> = {
  [GREY]: [1, 2, 4, 8, 16],
  [RGB]: [8, 16],
  [PALETTE]: [1, 2, 4, 8],
  [GREY_ALPHA]: [8, 16],
  [RGBA]: [8, 16],
};
const MAX_SIDE = 65535;
const RAW_PROFILE = "Raw profile type";

function parseIhdr(data: Uint8Array): Ihdr | undefined {
  if (data.length !== 13) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const width = view.getUint32(0);
  const height = view.getUint32(4);
  const [bitDepth, colourType, compression, filter, interlace] = data.subarray(8) as unknown as number[];
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) return undefined;
  if (!BIT_DEPTHS[colourType as number]?.includes(bitDepth as number)) return undefined;
  if (compression !== 0 || filter !== 0 || (interlace !== 0 && interlace !== 1)) return undefined;
  return { width, height, colourType: colourType as number };
}

function isValidTransparency(colourType: number, length: number, paletteEntries: number): boolean {
  if (colourType === GREY) return length === 2;
  if (colourType === RGB) return length === 6;
  if (colourType === PALETTE) return paletteEntries > 0 && length > 0 && length <= paletteEntries;
  return false; // an alpha colour type with tRNS: libpng ignores the chunk with a warning
}

function startsWithRawProfile(data: Uint8Array): boolean {
  return String.fromCharCode(...data.subarray(0, RAW_PROFILE.length)) === RAW_PROFILE;
}
