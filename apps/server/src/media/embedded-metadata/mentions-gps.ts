/**
 * Whether a text block (an XMP packet, a PNG text chunk, a Photoshop resource block) names GPS
 * anywhere, ASCII case-insensitively (`exif:GPSLatitude`, `drone-dji:GpsLatitude`, ...):
 * `strip-location` drops such a block whole rather than parse XML. One pass, no copy.
 */
const G = 0x67;
const P = 0x70;
const S = 0x73;
const LOWER = 0x20;

export function mentionsGps(bytes: Uint8Array): boolean {
  for (let index = 0; index + 2 < bytes.length; index++) {
    if (
      ((bytes[index] as number) | LOWER) === G &&
      ((bytes[index + 1] as number) | LOWER) === P &&
      ((bytes[index + 2] as number) | LOWER) === S
    ) {
      return true;
    }
  }
  return false;
}

/** Whether `bytes` at `offset` starts with the ASCII `text`. */
export function startsWithAscii(bytes: Uint8Array, text: string, offset = 0): boolean {
  if (offset + text.length > bytes.length) return false;
  for (let index = 0; index < text.length; index++) {
    if (bytes[offset + index] !== text.charCodeAt(index)) return false;
  }
  return true;
}
