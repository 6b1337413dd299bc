/**
 * The TIFF structure shared by EXIF blocks (JPEG APP1, PNG eXIf, WebP EXIF, a HEIF `Exif` item)
 * and TIFF files: which byte ranges to zero so that a mode's metadata is gone while every offset
 * in the file stays valid (nothing moves, so the image data is untouched).
 *
 * - A GPS IFD (tag 0x8825, wherever it is linked from) is zeroed whole: its entry count becomes 0
 *   and every value it pointed at is zeros.
 * - `strip` also zeroes the Exif IFD (0x8769, exposure and maker notes: nothing structural), and
 *   in every image IFD the values of the personal tags (PERSONAL_TAGS).
 * - In an EXIF block (not a TIFF file) IFD1 is the thumbnail, a JPEG that may carry its own
 *   metadata: it is unlinked and its bytes zeroed in both modes.
 *
 * Hostile input: every offset and length is checked against the block, every IFD is visited once,
 * and the entries read and the bytes zeroed are budgeted, so the walk is linear in the block.
 */
import { EmbeddedMetadataError, within } from "./embedded-metadata-error.js";
import { mentionsGps } from "./mentions-gps.js";

export type TiffStripMode = "strip" | "strip-location";

export interface ZeroRange {
  start: number;
  end: number;
}

const TAG = {
  orientation: 0x0112,
  exifIfd: 0x8769,
  gpsIfd: 0x8825,
  interopIfd: 0xa005,
  subIfds: 0x014a,
  xmp: 0x02bc,
  thumbnailOffset: 0x0201,
  thumbnailLength: 0x0202,
} as const;

/**
 * Tags whose values `strip` zeroes in an image IFD: names, free text, serial numbers, and the
 * blocks that hold more of them (XMP, IPTC, Photoshop resources, maker notes).
 */
const PERSONAL_TAGS = new Set([
  0x010d, // DocumentName
  0x010e, // ImageDescription
  0x013b, // Artist
  0x013c, // HostComputer
  0x8298, // Copyright (the holder's name)
  0x02bc, // XMP
  0x83bb, // IPTC
  0x8649, // Photoshop image resources
  0x927c, // MakerNote
  0x9286, // UserComment
  0x9c9b, // XPTitle
  0x9c9c, // XPComment
  0x9c9d, // XPAuthor
  0x9c9e, // XPKeywords
  0x9c9f, // XPSubject
  0xa420, // ImageUniqueID
  0xa430, // CameraOwnerName
  0xa431, // BodySerialNumber
  0xa435, // LensSerialNumber
  0xc62f, // CameraSerialNumber (DNG)
]);

/** Bytes per value of each TIFF field type (1..13); an unknown type is read as 4 inline bytes. */
const TYPE_BYTES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];
const SHORT = 3;
const LONG = 4;
const IFD_TYPE = 13;
const ENTRY_BYTES = 12;
/** Far more than any camera writes; a file needing more is refused, not walked. */
const MAX_IFDS = 512;
const MAX_ENTRIES = 200_000;

export interface Tiff {
  bytes: Uint8Array;
  view: DataView;
  little: boolean;
  ifd0: number;
}

export function openTiff(bytes: Uint8Array): Tiff {
  if (bytes.length < 8) throw new EmbeddedMetadataError("TIFF header truncated");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const order = view.getUint16(0);
  if (order !== 0x4949 && order !== 0x4d4d) throw new EmbeddedMetadataError("TIFF byte order unknown");
  const little = order === 0x4949;
  if (view.getUint16(2, little) !== 42) throw new EmbeddedMetadataError("not a TIFF header");
  const ifd0 = view.getUint32(4, little);
  checkIfd(bytes, view, little, ifd0);
  return { bytes, view, little, ifd0 };
}

function checkIfd(bytes: Uint8Array, view: DataView, little: boolean, offset: number): number {
  within(offset + 2, bytes.length, "TIFF IFD");
  const count = view.getUint16(offset, little);
  within(offset + 2 + count * ENTRY_BYTES + 4, bytes.length, "TIFF IFD");
  return count;
}

interface Entry {
  /** Offset of the 12-byte entry. */
  at: number;
  tag: number;
  type: number;
  count: number;
  /** Where the value's bytes are (inline in the entry, or at its offset). */
  value: ZeroRange;
}

class Walk {
  readonly ranges: ZeroRange[] = [];
  private readonly visited = new Set<number>();
  private entries = 0;
  private zeroed = 0;

  constructor(readonly tiff: Tiff) {}

  /** The IFD's entries, or null when it was walked already (a loop or a shared IFD). */
  ifd(offset: number): { entries: Entry[]; next: number; count: number } | null {
    if (this.visited.has(offset)) return null;
    if (this.visited.size >= MAX_IFDS) throw new EmbeddedMetadataError("too many TIFF IFDs");
    this.visited.add(offset);
    const { bytes, view, little } = this.tiff;
    const count = checkIfd(bytes, view, little, offset);
    this.entries += count;
    if (this.entries > MAX_ENTRIES) throw new EmbeddedMetadataError("too many TIFF entries");
    const entries: Entry[] = [];
    for (let index = 0; index < count; index++) {
      const at = offset + 2 + index * ENTRY_BYTES;
      const type = view.getUint16(at + 2, little);
      const valueCount = view.getUint32(at + 4, little);
      const length = valueCount * (TYPE_BYTES[type] ?? 4);
      let value: ZeroRange = { start: at + 8, end: at + 12 };
      if (length > 4) {
        const start = view.getUint32(at + 8, little);
        within(start + length, bytes.length, "TIFF value");
        value = { start, end: start + length };
      }
      entries.push({ at, tag: view.getUint16(at, little), type, count: valueCount, value });
    }
    return { entries, next: view.getUint32(offset + 2 + count * ENTRY_BYTES, little), count };
  }

  zero(range: ZeroRange): void {
    this.zeroed += range.end - range.start;
    if (this.zeroed > 2 * this.tiff.bytes.length) throw new EmbeddedMetadataError("TIFF values overlap");
    this.ranges.push(range);
  }

  /** A LONG/IFD pointer entry's target, or null for another type or count. */
  pointer(entry: Entry): number | null {
    if ((entry.type !== LONG && entry.type !== IFD_TYPE) || entry.count !== 1) return null;
    return this.tiff.view.getUint32(entry.at + 8, this.tiff.little);
  }

  /** Zeroes an IFD whole: its table (count 0, next 0) and what its entries point at, nested IFDs too. */
  zeroIfd(offset: number): void {
    const ifd = this.ifd(offset);
    if (!ifd) return;
    for (const entry of ifd.entries) {
      const target = isIfdPointer(entry.tag) ? this.pointer(entry) : null;
      if (target !== null && target !== 0) this.zeroIfd(target);
      this.zero(entry.value);
    }
    this.zero({ start: offset, end: offset + 2 + ifd.count * ENTRY_BYTES + 4 });
  }
}

function isIfdPointer(tag: number): boolean {
  return tag === TAG.exifIfd || tag === TAG.gpsIfd || tag === TAG.interopIfd;
}

/**
 * The ranges to zero for `mode`. `exifBlock`: the TIFF is an EXIF block, whose IFD1 is a
 * thumbnail; otherwise a TIFF file, whose IFD chain is its pages, each kept.
 */
export function tiffZeroRanges(tiff: Tiff, mode: TiffStripMode, exifBlock: boolean): ZeroRange[] {
  const walk = new Walk(tiff);
  let offset = tiff.ifd0;
  let previousNext: number | null = null;
  for (let page = 0; offset !== 0; page++) {
    if (exifBlock && page === 1 && previousNext !== null) {
      zeroThumbnail(walk, offset);
      walk.zero({ start: previousNext, end: previousNext + 4 });
      break;
    }
    const ifd = walk.ifd(offset);
    if (!ifd) break;
    walkImageIfd(walk, ifd.entries, mode);
    previousNext = offset + 2 + ifd.count * ENTRY_BYTES;
    offset = ifd.next;
  }
  return walk.ranges;
}

function walkImageIfd(walk: Walk, entries: Entry[], mode: TiffStripMode): void {
  for (const entry of entries) {
    if (entry.tag === TAG.gpsIfd || (mode === "strip" && entry.tag === TAG.exifIfd)) {
      const target = walk.pointer(entry);
      if (target) walk.zeroIfd(target);
      continue;
    }
    if (mode === "strip" && PERSONAL_TAGS.has(entry.tag)) {
      walk.zero(entry.value);
      continue;
    }
    if (entry.tag === TAG.xmp && mentionsGps(walk.tiff.bytes.subarray(entry.value.start, entry.value.end))) {
      walk.zero(entry.value);
      continue;
    }
    // strip-location: a GPS IFD may hide under the Exif or Interop IFD; sub-images are images.
    if (entry.tag === TAG.exifIfd || entry.tag === TAG.interopIfd) {
      const target = walk.pointer(entry);
      const nested = target ? walk.ifd(target) : null;
      if (nested) walkImageIfd(walk, nested.entries, mode);
    }
    if (entry.tag === TAG.subIfds) walkSubIfds(walk, entry, mode);
  }
}

function walkSubIfds(walk: Walk, entry: Entry, mode: TiffStripMode): void {
  if (entry.type !== LONG && entry.type !== IFD_TYPE) return;
  const { view, little } = walk.tiff;
  for (let at = entry.value.start; at + 4 <= entry.value.end; at += 4) {
    const nested = walk.ifd(view.getUint32(at, little));
    if (nested) walkImageIfd(walk, nested.entries, mode);
  }
}

/** IFD1 of an EXIF block: its table, its values and the JPEG thumbnail it points at. */
function zeroThumbnail(walk: Walk, offset: number): void {
  const ifd = walk.ifd(offset);
  if (!ifd) return;
  const { view, little, bytes } = walk.tiff;
  let start: number | undefined;
  let length: number | undefined;
  for (const entry of ifd.entries) {
    walk.zero(entry.value);
    if (entry.type !== SHORT && entry.type !== LONG) continue;
    const value =
      entry.type === SHORT ? view.getUint16(entry.at + 8, little) : view.getUint32(entry.at + 8, little);
    if (entry.tag === TAG.thumbnailOffset) start = value;
    if (entry.tag === TAG.thumbnailLength) length = value;
  }
  walk.zero({ start: offset, end: offset + 2 + ifd.count * ENTRY_BYTES + 4 });
  // Zero what of the thumbnail lies inside the block: a pointer past it points at nothing.
  if (start !== undefined && length !== undefined && start < bytes.length) {
    walk.zero({ start, end: Math.min(bytes.length, start + length) });
  }
}

/** IFD0's Orientation (1..8), 1 when absent or not a single SHORT in range. */
export function tiffOrientation(tiff: Tiff): number {
  const { view, little, ifd0 } = tiff;
  const count = view.getUint16(ifd0, little);
  for (let index = 0; index < count; index++) {
    const at = ifd0 + 2 + index * ENTRY_BYTES;
    if (view.getUint16(at, little) !== TAG.orientation) continue;
    if (view.getUint16(at + 2, little) !== SHORT || view.getUint32(at + 4, little) !== 1) return 1;
    const value = view.getUint16(at + 8, little);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}

/** Whether zeroing `ranges` would change any byte (all zero already: nothing to strip). */
export function changesAnything(bytes: Uint8Array, ranges: readonly ZeroRange[]): boolean {
  for (const { start, end } of ranges) {
    for (let index = start; index < end; index++) if (bytes[index] !== 0) return true;
  }
  return false;
}

export function applyZeroRanges(bytes: Uint8Array, ranges: readonly ZeroRange[]): void {
  for (const { start, end } of ranges) bytes.fill(0, start, end);
}

/**
 * The smallest EXIF TIFF that says only `orientation`: "II", 42, IFD0 at 8 with one SHORT entry,
 * no next IFD (26 bytes). What `strip` leaves where an EXIF block was, so the image stays upright.
 */
export function minimalExifTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write("II", 0, "latin1");
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(1, 8);
  tiff.writeUInt16LE(TAG.orientation, 10);
  tiff.writeUInt16LE(SHORT, 12);
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(orientation, 18);
  tiff.writeUInt32LE(0, 22);
  return tiff;
}
