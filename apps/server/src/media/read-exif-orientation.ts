/**
 * The EXIF Orientation tag (0x0112) of IFD0, read the way libvips reads it through libexif, or
 * `undefined` when the block is not one this reader is sure about (a bad offset, an entry
 * outside the block, an orientation of the wrong type or out of 1..8): the caller then lets
 * libvips read the header, so an odd EXIF block gives exactly the orientation it gave before.
 * A sound block without the tag is orientation 1.
 */
export function readExifOrientation(block: Uint8Array): number | undefined {
  // libvips accepts the block with or without the "Exif\0\0" prefix (JPEG APP1 has it; PNG
  // eXIf and WebP EXIF usually do not).
  const tiff = startsWith(block, EXIF_PREFIX) ? block.subarray(EXIF_PREFIX.length) : block;
  if (tiff.length < 8) return undefined;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const order = view.getUint16(0);
  if (order !== LITTLE_ENDIAN && order !== BIG_ENDIAN) return undefined;
  const little = order === LITTLE_ENDIAN;
  if (view.getUint16(2, little) !== 42) return undefined;
  const ifd = view.getUint32(4, little);
  if (ifd < 8 || ifd + 2 > tiff.length) return undefined;
  const entries = view.getUint16(ifd, little);
  if (ifd + 2 + entries * ENTRY_BYTES > tiff.length) return undefined;
  let orientation: number | undefined;
  for (let index = 0; index < entries; index++) {
    const entry = ifd + 2 + index * ENTRY_BYTES;
    if (view.getUint16(entry, little) !== ORIENTATION_TAG) continue;
    // Two Orientation entries: which one libexif keeps is not ours to guess.
    if (orientation !== undefined) return undefined;
    const isOneShort = view.getUint16(entry + 2, little) === SHORT && view.getUint32(entry + 4, little) === 1;
    const value = view.getUint16(entry + 8, little);
    if (!isOneShort || value < 1 || value > 8) return undefined;
    orientation = value;
  }
  return orientation ?? 1;
}

const EXIF_PREFIX = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"
const LITTLE_ENDIAN = 0x4949; // "II"
const BIG_ENDIAN = 0x4d4d; // "MM"
const ENTRY_BYTES = 12;
const ORIENTATION_TAG = 0x0112;
const SHORT = 3;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}
