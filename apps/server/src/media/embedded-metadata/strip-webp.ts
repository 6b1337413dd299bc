/**
 * WebP: the RIFF chunks are read one by one (every size checked against the RIFF's and the
 * file's); what follows the RIFF is dropped. When anything changes, the RIFF size and the VP8X
 * flags (EXIF, XMP) are written again to say what is left.
 *
 * - `strip` keeps the image chunks (VP8X, VP8, VP8L, ALPH, ANIM, ANMF) and ICCP; EXIF comes back
 *   as a 26-byte EXIF holding only the Orientation when it is not 1; XMP and anything else goes.
 * - `strip-location` zeroes the GPS IFD of EXIF in place and drops an XMP that names GPS.
 */
import { BytePieces } from "./byte-pieces.js";
import { EmbeddedMetadataError, within } from "./embedded-metadata-error.js";
import { exifBlockOutcome, exifTiffOffset, withPrefix } from "./exif-block.js";
import { mentionsGps, startsWithAscii } from "./mentions-gps.js";
import type { TiffStripMode } from "./tiff-ifd.js";

const KEPT_BY_STRIP = new Set(["VP8X", "VP8 ", "VP8L", "ALPH", "ANIM", "ANMF", "ICCP"]);
const FLAG_EXIF = 0x08;
const FLAG_XMP = 0x04;

export function stripWebp(bytes: Uint8Array, mode: TiffStripMode): Buffer | null {
  if (!startsWithAscii(bytes, "RIFF") || !startsWithAscii(bytes, "WEBP", 8)) {
    throw new EmbeddedMetadataError("not a WebP");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riffEnd = 8 + view.getUint32(4, true);
  within(riffEnd, bytes.length, "WebP RIFF");
  const out = new BytePieces(bytes);
  out.keep(0, 12);
  const left = { exif: false, xmp: false };
  let pos = 12;
  while (pos < riffEnd) {
    within(pos + 8, riffEnd, "WebP chunk header");
    const type = String.fromCharCode(...bytes.subarray(pos, pos + 4));
    const size = view.getUint32(pos + 4, true);
    within(pos + 8 + size, riffEnd, "WebP chunk");
    // The pad byte of an odd size; a writer may leave it off the last chunk.
    const end = Math.min(riffEnd, pos + 8 + size + (size & 1));
    const data = bytes.subarray(pos + 8, pos + 8 + size);
    if (type === "EXIF") left.exif = exifChunk(out, pos, end, data, mode) || left.exif;
    else if (kept(type, data, mode)) {
      out.keep(pos, end);
      if (type === "XMP ") left.xmp = true;
    } else out.drop(pos, end);
    pos = end;
  }
  out.drop(riffEnd, bytes.length);
  const result = out.join();
  if (result) rewriteHeader(result, left);
  return result;
}

function kept(type: string, data: Uint8Array, mode: TiffStripMode): boolean {
  if (mode === "strip") return KEPT_BY_STRIP.has(type);
  return type !== "XMP " || !mentionsGps(data);
}

/** Whether an EXIF chunk is left. */
function exifChunk(
  out: BytePieces,
  pos: number,
  end: number,
  data: Uint8Array,
  mode: TiffStripMode,
): boolean {
  const prefix = exifTiffOffset(data);
  const outcome = exifBlockOutcome(data.subarray(prefix), mode);
  if (outcome.kind === "unchanged") {
    out.keep(pos, end);
    return true;
  }
  out.drop(pos, end);
  if (outcome.kind === "drop") return false;
  const payload = withPrefix(data, prefix, outcome.tiff);
  const chunk = Buffer.alloc(8 + payload.length + (payload.length & 1));
  chunk.write("EXIF", 0, "latin1");
  chunk.writeUInt32LE(payload.length, 4);
  chunk.set(payload, 8);
  out.add(chunk);
  return true;
}

/** The RIFF size, and the VP8X flags (VP8X is always the first chunk when present). */
function rewriteHeader(file: Buffer, left: { exif: boolean; xmp: boolean }): void {
  file.writeUInt32LE(file.length - 8, 4);
  if (file.length < 21 || !startsWithAscii(file, "VP8X", 12)) return;
  let flags = file[20] as number;
  flags = left.exif ? flags | FLAG_EXIF : flags & ~FLAG_EXIF;
  flags = left.xmp ? flags | FLAG_XMP : flags & ~FLAG_XMP;
  file[20] = flags;
}
