/**
 * Which video container a file is, from its first bytes alone; null for anything else. Only what
 * this names is ever handed to ffprobe/ffmpeg, with the matching demuxer forced, so a playlist
 * (HLS, ffconcat), an SDP file or any text cannot steer ffmpeg into reading other files or
 * dialling out (SECURITY: e2e/SECURITY.md, "Video transforms of hostile files").
 *
 * - ISO-BMFF: an `ftyp` box whose major brand, or failing that a compatible brand, is a video
 *   brand. Still-image brands (HEIC, AVIF: src/media/heif/heif-brands.ts) are not video: a file
 *   that names one is never sniffed as a video, whatever else it lists.
 * - EBML (Matroska): the header's DocType, `webm` or `matroska`.
 */
export type VideoContainer = "mp4" | "mov" | "webm" | "matroska";

/** How many bytes of a file's head `sniffVideoContainer` reads at most. */
export const VIDEO_SNIFF_BYTES = 64;

const QUICKTIME_BRAND = "qt  ";
const MP4_BRANDS = new Set([
  "isom",
  "iso2",
  "iso3",
  "iso4",
  "iso5",
  "iso6",
  "mp41",
  "mp42",
  "avc1",
  "M4V ",
  "dash",
]);
const IMAGE_BRANDS = new Set([
  "heic",
  "heix",
  "hevc",
  "hevx",
  "heim",
  "heis",
  "mif1",
  "msf1",
  "avif",
  "avis",
]);
const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];
const DOCTYPE_ID = [0x42, 0x82];

export function sniffVideoContainer(head: Buffer): VideoContainer | null {
  const bytes = head.subarray(0, VIDEO_SNIFF_BYTES);
  if (bytes.length >= 12 && bytes.toString("latin1", 4, 8) === "ftyp") return isoBmffContainer(bytes);
  if (EBML_MAGIC.every((byte, index) => bytes[index] === byte)) return matroskaContainer(bytes);
  return null;
}

function isoBmffContainer(bytes: Buffer): VideoContainer | null {
  const size = bytes.readUInt32BE(0);
  if (size < 12) return null;
  const end = Math.min(size, bytes.length);
  const brands = [bytes.toString("latin1", 8, 12)];
  for (let offset = 16; offset + 4 <= end; offset += 4)
    brands.push(bytes.toString("latin1", offset, offset + 4));
  if (brands.some((brand) => IMAGE_BRANDS.has(brand))) return null;
  const containerOf = (brand: string): VideoContainer | null =>
    brand === QUICKTIME_BRAND ? "mov" : MP4_BRANDS.has(brand) || brand.startsWith("3g") ? "mp4" : null;
  // The major brand says what the file is; a compatible brand only when the major one is unknown.
  return brands.map(containerOf).find((container) => container !== null) ?? null;
}

function matroskaContainer(bytes: Buffer): VideoContainer | null {
  for (let offset = 4; offset + 3 < bytes.length; offset += 1) {
    if (bytes[offset] !== DOCTYPE_ID[0] || bytes[offset + 1] !== DOCTYPE_ID[1]) continue;
    // The DocType's size is an EBML variable-length integer; a one-byte one (0x80 | n) is what
    // every muxer writes for a string this short.
    const sizeByte = bytes[offset + 2] as number;
    if ((sizeByte & 0x80) === 0) return null;
    const length = sizeByte & 0x7f;
    const docType = bytes.toString("latin1", offset + 3, offset + 3 + length);
    return docType === "webm" ? "webm" : docType === "matroska" ? "matroska" : null;
  }
  return null;
}
