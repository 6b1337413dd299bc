/**
 * JPEG: the segments before, between and after the scans are read one by one (every length
 * checked), the entropy-coded data is copied untouched, and what follows EOI (an MPF's extra
 * images, appended data) is dropped in both modes: it may be whole images with their own EXIF.
 *
 * - `strip` keeps APP0 JFIF/JFXX, APP2 ICC_PROFILE, APP14 Adobe and every non-APP segment; the
 *   first APP1 Exif becomes a 26-byte EXIF holding only the Orientation (dropped when it is 1);
 *   every other APPn (XMP, extended XMP, a second Exif, APP13 IPTC/Photoshop, MPF, ...) and COM go.
 * - `strip-location` zeroes the GPS IFD of every APP1 Exif in place, drops extended XMP and any
 *   other APPn or COM that names GPS or carries a Photoshop EXIF/XMP resource.
 */
import { BytePieces } from "./byte-pieces.js";
import { EmbeddedMetadataError, within } from "./embedded-metadata-error.js";
import { EXIF_PREFIX, exifBlockOutcome } from "./exif-block.js";
import { mentionsGps, startsWithAscii } from "./mentions-gps.js";
import type { TiffStripMode } from "./tiff-ifd.js";

const SOS = 0xda;
const EOI = 0xd9;
const COM = 0xfe;
const APP0 = 0xe0;
const APP15 = 0xef;

export function stripJpeg(bytes: Uint8Array, mode: TiffStripMode): Buffer | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new EmbeddedMetadataError("JPEG without SOI");
  const out = new BytePieces(bytes);
  out.keep(0, 2);
  const state = { exifSeen: false };
  let pos = 2;
  while (pos < bytes.length) {
    if (bytes[pos] !== 0xff) throw new EmbeddedMetadataError("JPEG marker expected");
    let markerAt = pos + 1;
    while (bytes[markerAt] === 0xff) markerAt++; // fill bytes
    within(markerAt + 1, bytes.length, "JPEG marker");
    const marker = bytes[markerAt] as number;
    if (marker === EOI) {
      out.keep(pos, markerAt + 1);
      out.drop(markerAt + 1, bytes.length);
      return out.join();
    }
    if (isStandalone(marker)) {
      out.keep(pos, markerAt + 1);
      pos = markerAt + 1;
      continue;
    }
    within(markerAt + 3, bytes.length, "JPEG segment length");
    const length = ((bytes[markerAt + 1] as number) << 8) | (bytes[markerAt + 2] as number);
    if (length < 2) throw new EmbeddedMetadataError("JPEG segment length below 2");
    const end = markerAt + 1 + length;
    within(end, bytes.length, "JPEG segment");
    if (marker === SOS) {
      const next = endOfScan(bytes, end);
      out.keep(pos, next);
      pos = next;
      continue;
    }
    const data = bytes.subarray(markerAt + 3, end);
    if (marker === COM || (marker >= APP0 && marker <= APP15)) {
      segment(out, { pos, end, marker, data }, mode, state);
    } else {
      out.keep(pos, end);
    }
    pos = end;
  }
  // No EOI: a truncated file ends where its bytes end; nothing after it to drop.
  return out.join();
}

/** RSTn, TEM and a stray SOI carry no length. */
function isStandalone(marker: number): boolean {
  return (marker >= 0xd0 && marker <= 0xd8) || marker === 0x01;
}

/**
 * The first marker after entropy-coded data (stuffed FF00 and RSTn belong to the data). The data
 * is most of a JPEG, so it is searched with indexOf, which runs natively, and not walked byte by
 * byte in JavaScript: that walk was the costliest part of a small upload.
 */
function endOfScan(bytes: Uint8Array, from: number): number {
  for (let index = bytes.indexOf(0xff, from); index >= 0; index = bytes.indexOf(0xff, index + 1)) {
    if (index + 1 >= bytes.length) break;
    const next = bytes[index + 1] as number;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) continue;
    return index;
  }
  return bytes.length;
}

interface Segment {
  pos: number;
  end: number;
  marker: number;
  data: Uint8Array;
}

function segment(out: BytePieces, seg: Segment, mode: TiffStripMode, state: { exifSeen: boolean }): void {
  const { pos, end, marker, data } = seg;
  const isExif = marker === 0xe1 && startsWithAscii(data, EXIF_PREFIX);
  if (isExif && (mode === "strip-location" || !state.exifSeen)) {
    state.exifSeen = true;
    exifSegment(out, seg, mode);
    return;
  }
  const keep = mode === "strip" ? keptByStrip(marker, data) : keptByStripLocation(marker, data);
  if (keep) out.keep(pos, end);
  else out.drop(pos, end);
}

function exifSegment(out: BytePieces, { pos, end, data }: Segment, mode: TiffStripMode): void {
  const outcome = exifBlockOutcome(data.subarray(EXIF_PREFIX.length), mode);
  if (outcome.kind === "unchanged") {
    out.keep(pos, end);
    return;
  }
  out.drop(pos, end);
  if (outcome.kind === "drop") return;
  const header = Buffer.alloc(4 + EXIF_PREFIX.length);
  header.writeUInt16BE(0xffe1, 0);
  header.writeUInt16BE(2 + EXIF_PREFIX.length + outcome.tiff.length, 2);
  header.write(EXIF_PREFIX, 4, "latin1");
  out.add(header);
  out.add(outcome.tiff);
}

function keptByStrip(marker: number, data: Uint8Array): boolean {
  if (marker === APP0) return startsWithAscii(data, "JFIF\0") || startsWithAscii(data, "JFXX\0");
  if (marker === 0xe2) return startsWithAscii(data, "ICC_PROFILE\0");
  if (marker === 0xee) return startsWithAscii(data, "Adobe");
  return false;
}

function keptByStripLocation(marker: number, data: Uint8Array): boolean {
  if (marker === 0xe2 && startsWithAscii(data, "ICC_PROFILE\0")) return true;
  // Extended XMP is split across segments: a name could straddle two, so none is kept.
  if (marker === 0xe1 && startsWithAscii(data, "http://ns.adobe.com/xmp/extension/")) return false;
  // MPF points at the images after EOI, which are dropped.
  if (marker === 0xe2 && startsWithAscii(data, "MPF\0")) return false;
  if (marker === 0xed && hasPhotoshopExifOrXmp(data)) return false;
  return !mentionsGps(data);
}

/** Photoshop image resources 0x0422 (EXIF), 0x0423 and 0x0424 (XMP) in an APP13. */
function hasPhotoshopExifOrXmp(data: Uint8Array): boolean {
  for (let index = 0; index + 5 < data.length; index++) {
    if (
      startsWithAscii(data, "8BIM", index) &&
      data[index + 4] === 0x04 &&
      (data[index + 5] === 0x22 || data[index + 5] === 0x23 || data[index + 5] === 0x24)
    ) {
      return true;
    }
  }
  return false;
}
