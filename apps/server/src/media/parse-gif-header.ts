import { MAX_HEADER_STEPS, type ParsedHeader } from "./parsed-header.js";

/**
 * Reads a GIF's header from its bytes by walking every block to the trailer, as libvips' GIF
 * loader scans the whole file: pages is the number of frames, and alpha means some frame has a
 * transparent colour (a Graphic Control Extension with its transparency flag). Returns
 * `undefined` for anything this parser does not vouch for (no trailer, truncation, a first
 * frame outside the logical screen, which libvips grows the canvas to fit, a screen size
 * libvips replaces by the first frame's, an odd LZW code size, more than MAX_HEADER_STEPS
 * blocks): the caller then asks libvips.
 */
export function parseGifHeader(bytes: Uint8Array): ParsedHeader | undefined {
  if (bytes.length < 13 || !/^GIF8[79]a$/.test(String.fromCharCode(...bytes.subarray(0, 6))))
    return undefined;
  const width = readUint16(bytes, 6);
  const height = readUint16(bytes, 8);
  if (isScreenSizeLibvipsIgnores(width, height)) return undefined;
  let pos = 13 + colourTableBytes(bytes[10] as number);
  let frames = 0;
  let hasAlpha = false;
  let nextIsTransparent = false;
  for (let step = 0; step < MAX_HEADER_STEPS && pos < bytes.length; step++) {
    const introducer = bytes[pos];
    if (introducer === TRAILER) {
      return frames === 0 ? undefined : { width, height, exifOrientation: 1, hasAlpha, pages: frames };
    }
    if (introducer === EXTENSION) {
      if (bytes[pos + 1] === GRAPHIC_CONTROL) {
        if (bytes[pos + 2] !== 4) return undefined;
        nextIsTransparent = ((bytes[pos + 3] ?? 0) & 1) === 1;
      }
      pos = skipSubBlocks(bytes, pos + 2);
    } else if (introducer === IMAGE) {
      if (pos + 10 > bytes.length) return undefined;
      const right = readUint16(bytes, pos + 1) + readUint16(bytes, pos + 5);
      const bottom = readUint16(bytes, pos + 3) + readUint16(bytes, pos + 7);
      if (frames === 0 && (right > width || bottom > height)) return undefined;
      pos += 10 + colourTableBytes(bytes[pos + 9] as number);
      const codeSize = bytes[pos] ?? 0;
      if (codeSize < 2 || codeSize > 8) return undefined;
      pos = skipSubBlocks(bytes, pos + 1);
      frames += 1;
      hasAlpha ||= nextIsTransparent;
      nextIsTransparent = false;
    } else {
      return undefined;
    }
  }
  return undefined;
}

const TRAILER = 0x3b;
const EXTENSION = 0x21;
const IMAGE = 0x2c;
const GRAPHIC_CONTROL = 0xf9;

/**
 * libvips' GIF decoder (libnsgif) distrusts an empty screen, one over 2048 on a side and the
 * desktop sizes old encoders wrote, and sizes the canvas by the first frame instead.
 */
function isScreenSizeLibvipsIgnores(width: number, height: number): boolean {
  if (width === 0 || height === 0 || width > 2048 || height > 2048) return true;
  return DESKTOP_SIZES.some(([w, h]) => w === width && h === height);
}

const DESKTOP_SIZES = [
  [640, 480],
  [640, 512],
  [800, 600],
  [1024, 768],
  [1280, 1024],
  [1600, 1200],
];

/** A global or local colour table follows its descriptor when the flags' top bit is set. */
function colourTableBytes(flags: number): number {
  return flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0;
}

/**
 * The position after a chain of data sub-blocks starting at `pos`, or past the end when the
 * chain is cut short (the caller's loop then ends without a trailer). Each step moves forward
 * by at least one byte, so it ends within bytes.length steps.
 */
function skipSubBlocks(bytes: Uint8Array, pos: number): number {
  let at = pos;
  while (at < bytes.length) {
    const size = bytes[at] as number;
    at += 1 + size;
    if (size === 0) return at;
  }
  return bytes.length + 1;
}

function readUint16(bytes: Uint8Array, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8);
}
