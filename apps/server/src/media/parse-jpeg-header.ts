import { MAX_HEADER_STEPS, type ParsedHeader } from "./parsed-header.js";
import { readExifOrientation } from "./read-exif-orientation.js";

/**
 * Reads a JPEG's header from its bytes: the markers from SOI to the first SOS, validated as
 * libjpeg's jpeg_read_header validates them (segment lengths, SOF, DQT, DHT, DRI and SOS
 * contents, 8-bit precision, at most 65500 pixels a side). Returns `undefined` for anything
 * this parser does not vouch for (truncation, stray bytes between markers, CMYK, 12-bit,
 * lossless or arithmetic coding, several EXIF blocks, a long marker chain...): the caller then
 * asks libvips, whose verdict (refusal or header) is the same as before this parser existed.
 */
export function parseJpegHeader(bytes: Uint8Array): ParsedHeader | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== SOI) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let frame: Frame | undefined;
  let exif: Uint8Array | undefined;
  let pos = 2;
  for (let step = 0; step < MAX_HEADER_STEPS; step++) {
    if (pos + 4 > bytes.length || bytes[pos] !== 0xff) return undefined;
    const marker = bytes[pos + 1] as number;
    if (marker === 0xff) {
      pos += 1; // a fill byte before a marker
      continue;
    }
    const length = view.getUint16(pos + 2);
    if (length < 2 || pos + 2 + length > bytes.length) return undefined;
    const segment = bytes.subarray(pos + 4, pos + 2 + length);
    pos += 2 + length;
    if (marker === SOS) {
      if (frame === undefined || !isValidScan(segment, frame)) return undefined;
      const exifOrientation = exif === undefined ? 1 : readExifOrientation(exif);
      if (exifOrientation === undefined) return undefined;
      return { width: frame.width, height: frame.height, exifOrientation, hasAlpha: false, pages: 1 };
    }
    if (marker >= 0xc0 && marker <= 0xc2) {
      if (frame !== undefined) return undefined;
      frame = parseFrame(segment);
      if (frame === undefined) return undefined;
    } else if (marker === APP1 && isExif(segment)) {
      if (exif !== undefined) return undefined;
      exif = segment;
    } else if (!isValidTableOrMetadata(marker, segment)) {
      return undefined;
    }
  }
  return undefined;
}

interface Frame {
  width: number;
  height: number;
  componentIds: number[];
}

const SOI = 0xd8;
const SOS = 0xda;
const DHT = 0xc4;
const DQT = 0xdb;
const DRI = 0xdd;
const APP1 = 0xe1;
const COM = 0xfe;
// libjpeg's JPEG_MAX_DIMENSION: a larger side is "Maximum supported image dimension".
const MAX_SIDE = 65500;

/** SOF0-2 (baseline, extended, progressive), 8-bit, grey or YCbCr. */
function parseFrame(segment: Uint8Array): Frame | undefined {
  if (segment.length < 6) return undefined;
  const precision = segment[0];
  const height = ((segment[1] as number) << 8) | (segment[2] as number);
  const width = ((segment[3] as number) << 8) | (segment[4] as number);
  const components = segment[5] as number;
  if (precision !== 8 || (components !== 1 && components !== 3)) return undefined;
  if (segment.length !== 6 + components * 3) return undefined;
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) return undefined;
  const componentIds: number[] = [];
  for (let index = 0; index < components; index++) {
    const at = 6 + index * 3;
    const sampling = segment[at + 1] as number;
    const horizontal = sampling >> 4;
    const vertical = sampling & 0x0f;
    if (horizontal < 1 || horizontal > 4 || vertical < 1 || vertical > 4) return undefined;
    if ((segment[at + 2] as number) > 3) return undefined; // quantisation table 0..3
    componentIds.push(segment[at] as number);
  }
  if (new Set(componentIds).size !== components) return undefined;
  return { width, height, componentIds };
}

/** SOS: 1..4 components, each one the frame declared, once. */
function isValidScan(segment: Uint8Array, frame: Frame): boolean {
  const count = segment[0] ?? 0;
  if (count < 1 || count > frame.componentIds.length || segment.length !== 4 + count * 2) return false;
  const ids = new Set<number>();
  for (let index = 0; index < count; index++) {
    const id = segment[1 + index * 2] as number;
    if (!frame.componentIds.includes(id) || ids.has(id)) return false;
    ids.add(id);
  }
  return true;
}

function isExif(segment: Uint8Array): boolean {
  return segment[0] === 0x45 && segment[1] === 0x78 && segment[2] === 0x69 && segment[3] === 0x66;
}

/** The other markers libjpeg reads before SOS; anything else (DNL, JPGn, RSTn, EOI...) is not vouched for. */
function isValidTableOrMetadata(marker: number, segment: Uint8Array): boolean {
  if (marker === DQT) return isValidQuantisationTables(segment);
  if (marker === DHT) return isValidHuffmanTables(segment);
  if (marker === DRI) return segment.length === 2;
  return (marker >= 0xe0 && marker <= 0xef) || marker === COM;
}

function isValidQuantisationTables(segment: Uint8Array): boolean {
  let pos = 0;
  while (pos < segment.length) {
    const info = segment[pos] as number;
    if ((info & 0x0f) > 3 || info >> 4 > 1) return false;
    pos += 1 + 64 * ((info >> 4) + 1);
  }
  return pos === segment.length && segment.length > 0;
}

function isValidHuffmanTables(segment: Uint8Array): boolean {
  let pos = 0;
  while (pos < segment.length) {
    const info = segment[pos] as number;
    if ((info & 0x0f) > 3 || info >> 4 > 1 || pos + 17 > segment.length) return false;
    let symbols = 0;
    for (let bits = 1; bits <= 16; bits++) symbols += segment[pos + bits] as number;
    if (symbols > 256) return false;
    pos += 17 + symbols;
  }
  return pos === segment.length && segment.length > 0;
}
