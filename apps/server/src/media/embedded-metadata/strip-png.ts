/**
 * PNG: chunks are read one by one (every length checked; CRCs are not judged, as decoders do not
 * refuse on them either) and what follows IEND is dropped in both modes.
 *
 * - `strip` keeps the critical chunks and the ancillary ones that describe pixels (KEPT_ANCILLARY:
 *   colour, transparency, animation, physical size, ...); text (tEXt, zTXt, iTXt: comments,
 *   authors, XMP, "Raw profile type exif"), unknown private chunks and eXIf go, eXIf coming back
 *   as a 26-byte EXIF holding only the Orientation when it is not 1.
 * - `strip-location` zeroes the GPS IFD of eXIf in place (a new CRC) and drops the text chunks
 *   that hold EXIF or XMP, are compressed (not inflated here: no zip bombs), or name GPS.
 */
import { crc32 } from "node:zlib";
import { BytePieces } from "./byte-pieces.js";
import { EmbeddedMetadataError, within } from "./embedded-metadata-error.js";
import { exifBlockOutcome, exifTiffOffset, withPrefix } from "./exif-block.js";
import { mentionsGps, startsWithAscii } from "./mentions-gps.js";
import type { TiffStripMode } from "./tiff-ifd.js";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const KEPT_ANCILLARY = new Set([
  "tRNS",
  "gAMA",
  "cHRM",
  "sRGB",
  "iCCP",
  "cICP",
  "mDCV",
  "cLLI",
  "sBIT",
  "bKGD",
  "hIST",
  "sPLT",
  "pHYs",
  "acTL",
  "fcTL",
  "fdAT",
  "oFFs",
  "pCAL",
  "sCAL",
  "sTER",
]);
const TEXT_CHUNKS = new Set(["tEXt", "zTXt", "iTXt"]);

export function stripPng(bytes: Uint8Array, mode: TiffStripMode): Buffer | null {
  if (!SIGNATURE.every((byte, index) => bytes[index] === byte)) throw new EmbeddedMetadataError("not a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new BytePieces(bytes);
  out.keep(0, SIGNATURE.length);
  let pos = SIGNATURE.length;
  while (pos < bytes.length) {
    within(pos + 8, bytes.length, "PNG chunk header");
    const length = view.getUint32(pos);
    const end = pos + 12 + length;
    within(end, bytes.length, "PNG chunk");
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    const data = bytes.subarray(pos + 8, pos + 8 + length);
    if (type === "eXIf") exifChunk(out, pos, end, data, mode);
    else if (kept(type, data, mode)) out.keep(pos, end);
    else out.drop(pos, end);
    pos = end;
    if (type === "IEND") {
      out.drop(pos, bytes.length);
      return out.join();
    }
  }
  throw new EmbeddedMetadataError("PNG without IEND");
}

function kept(type: string, data: Uint8Array, mode: TiffStripMode): boolean {
  // Critical chunks (IHDR, PLTE, IDAT, IEND) start with an upper-case letter.
  if (type.charCodeAt(0) < 0x61) return true;
  if (mode === "strip") return KEPT_ANCILLARY.has(type);
  if (!TEXT_CHUNKS.has(type)) return true;
  if (type === "zTXt" || (type === "iTXt" && isCompressedITxt(data))) return false;
  if (startsWithAscii(data, "Raw profile type") || startsWithAscii(data, "XML:com.adobe.xmp")) return false;
  return !mentionsGps(data);
}

/** iTXt: keyword NUL, then the compression flag. */
function isCompressedITxt(data: Uint8Array): boolean {
  const nul = data.indexOf(0);
  return nul < 0 || data[nul + 1] !== 0;
}

function exifChunk(out: BytePieces, pos: number, end: number, data: Uint8Array, mode: TiffStripMode): void {
  const prefix = exifTiffOffset(data);
  const outcome = exifBlockOutcome(data.subarray(prefix), mode);
  if (outcome.kind === "unchanged") {
    out.keep(pos, end);
    return;
  }
  out.drop(pos, end);
  if (outcome.kind === "replace") out.add(pngChunk("eXIf", withPrefix(data, prefix, outcome.tiff)));
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, "latin1");
  chunk.set(data, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}
