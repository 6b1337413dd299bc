import { MAX_HEADER_STEPS, type ParsedHeader } from "./parsed-header.js";
import { readExifOrientation } from "./read-exif-orientation.js";

/**
 * Reads a still WebP's header from its bytes: the RIFF chunk list, walked whole as libwebp's
 * demuxer walks it, and the VP8 (lossy) or VP8L (lossless) bitstream header it holds, checked
 * as libwebp's VP8GetInfo/VP8LGetInfo check it. Alpha is the VP8X flag, which must agree with
 * the bitstream (an ALPH chunk, or VP8L's alpha bit); orientation comes from an EXIF chunk, as
 * libvips reads it. Returns `undefined` for anything this parser does not vouch for, animations
 * included (their frames would need the demuxer's frame checks): the caller then asks libvips.
 */
export function parseWebpHeader(bytes: Uint8Array): ParsedHeader | undefined {
  if (bytes.length < 20 || tag(bytes, 0) !== "RIFF" || tag(bytes, 8) !== "WEBP") return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const riffEnd = 8 + view.getUint32(4, true);
  // A RIFF longer than the data is truncated; bytes after it are ignored, as libwebp does.
  if (riffEnd > bytes.length || riffEnd < 20 || riffEnd % 2 !== 0) return undefined;
  const chunks: Chunk[] = [];
  for (let pos = 12; pos < riffEnd; ) {
    if (chunks.length === MAX_HEADER_STEPS || pos + 8 > riffEnd) return undefined;
    const size = view.getUint32(pos + 4, true);
    const end = pos + 8 + size;
    if (end > riffEnd) return undefined;
    chunks.push({ type: tag(bytes, pos), data: bytes.subarray(pos + 8, end) });
    pos = end + (size % 2);
  }
  const [first] = chunks;
  if (first === undefined) return undefined;
  if (first.type !== "VP8X") {
    const image = chunks.length === 1 ? readBitstream(first) : undefined;
    return (
      image && {
        width: image.width,
        height: image.height,
        exifOrientation: 1,
        hasAlpha: image.alpha,
        pages: 1,
      }
    );
  }
  return parseExtended(first.data, chunks.slice(1));
}

interface Chunk {
  type: string;
  data: Uint8Array;
}

interface Bitstream {
  width: number;
  height: number;
  alpha: boolean;
}

const ANIMATION_FLAG = 0x02;
const ALPHA_FLAG = 0x10;
// libwebp's largest side.
const MAX_SIDE = 16383;

function parseExtended(vp8x: Uint8Array, rest: Chunk[]): ParsedHeader | undefined {
  if (vp8x.length < 10) return undefined;
  const flags = vp8x[0] as number;
  if (flags & ANIMATION_FLAG) return undefined;
  const width = 1 + readUint24(vp8x, 4);
  const height = 1 + readUint24(vp8x, 7);
  const imageAt = rest.findIndex((chunk) => chunk.type === "VP8 " || chunk.type === "VP8L");
  const image = imageAt < 0 ? undefined : readBitstream(rest[imageAt] as Chunk);
  if (image === undefined || image.width !== width || image.height !== height) return undefined;
  const known = ["VP8X", "ANIM", "ANMF", "VP8 ", "VP8L"];
  if (rest.some((chunk, index) => index !== imageAt && known.includes(chunk.type))) return undefined;
  const alphaChunks = rest.filter((chunk) => chunk.type === "ALPH");
  const exifChunks = rest.filter((chunk) => chunk.type === "EXIF");
  if (alphaChunks.length > 1 || exifChunks.length > 1) return undefined;
  const alpha = rest[imageAt]?.type === "VP8L" ? image.alpha : alphaChunks.length === 1;
  if (alpha !== Boolean(flags & ALPHA_FLAG)) return undefined;
  const exif = exifChunks[0];
  const exifOrientation = exif === undefined ? 1 : readExifOrientation(exif.data);
  if (exifOrientation === undefined) return undefined;
  return { width, height, exifOrientation, hasAlpha: alpha, pages: 1 };
}

function readBitstream(chunk: Chunk): Bitstream | undefined {
  const { data } = chunk;
  if (chunk.type === "VP8 ") {
    if (data.length < 10) return undefined;
    const frameTag = (data[0] as number) | ((data[1] as number) << 8) | ((data[2] as number) << 16);
    const isKeyFrame = (frameTag & 1) === 0;
    const profile = (frameTag >> 1) & 7;
    const shown = (frameTag >> 4) & 1;
    const partitionLength = frameTag >> 5;
    if (!isKeyFrame || profile > 3 || !shown || partitionLength >= data.length) return undefined;
    if (data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) return undefined;
    const width = readUint16(data, 6) & 0x3fff;
    const height = readUint16(data, 8) & 0x3fff;
    return width === 0 || height === 0 ? undefined : { width, height, alpha: false };
  }
  if (chunk.type === "VP8L") {
    if (data.length < 5 || data[0] !== 0x2f) return undefined;
    const bits =
      ((data[1] as number) |
        ((data[2] as number) << 8) |
        ((data[3] as number) << 16) |
        ((data[4] as number) << 24)) >>>
      0;
    if (bits >>> 29 !== 0) return undefined; // version
    const width = (bits & 0x3fff) + 1;
    const height = ((bits >>> 14) & 0x3fff) + 1;
    if (width > MAX_SIDE || height > MAX_SIDE) return undefined;
    return { width, height, alpha: ((bits >>> 28) & 1) === 1 };
  }
  return undefined;
}

function tag(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 4));
}

function readUint16(bytes: Uint8Array, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8);
}

function readUint24(bytes: Uint8Array, at: number): number {
  return readUint16(bytes, at) | ((bytes[at + 2] as number) << 16);
}
