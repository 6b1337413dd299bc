import { parseGifHeader } from "./parse-gif-header.js";
import { parseJpegHeader } from "./parse-jpeg-header.js";
import { parsePngHeader } from "./parse-png-header.js";
import { parseWebpHeader } from "./parse-webp-header.js";
import type { ParsedHeader } from "./parsed-header.js";
import type { RasterFormat } from "./raster-format.js";

const PARSERS: Partial<Record<RasterFormat, (bytes: Uint8Array) => ParsedHeader | undefined>> = {
  jpeg: parseJpegHeader,
  png: parsePngHeader,
  webp: parseWebpHeader,
  gif: parseGifHeader,
};

/**
 * The header of an image in memory, read by the parser of the format its magic bytes named
 * (so a PNG-sniffed file is only ever read as PNG), or `undefined` when there is no parser for
 * the format (AVIF, TIFF) or the parser does not vouch for the file: libvips reads it then.
 * Each parser accepts only files libvips also accepts, with the same answer; the agreement
 * tests (parse-raster-header.test.ts) hold them to that.
 */
export function parseRasterHeader(bytes: Uint8Array, format: RasterFormat): ParsedHeader | undefined {
  return PARSERS[format]?.(bytes);
}
