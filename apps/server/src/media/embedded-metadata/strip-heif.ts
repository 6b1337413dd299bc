/**
 * HEIC, HEIF and AVIF (ISOBMFF): EXIF and XMP are items of the `meta` box (`iinf` names them,
 * `iloc` says where their bytes are, in the file or in `idat`). Every other item's offsets point
 * into the same file, so nothing moves: each metadata item's bytes are overwritten in place with
 * an equivalent of the same length.
 *
 * - `Exif`: `strip` writes a 26-byte EXIF holding only the Orientation, zero-padded;
 *   `strip-location` zeroes its GPS IFD and thumbnail in place (an EXIF it cannot read is
 *   overwritten as by `strip`).
 * - `mime` XMP (`application/rdf+xml`): `strip` always, `strip-location` when it names GPS,
 *   becomes an empty `x:xmpmeta` padded with spaces (XMP's own padding).
 * The image's orientation lives in the `irot`/`imir` properties, which are not touched.
 *
 * The boxes are walked with the header parser's bounded walker (../heif/heif-boxes.ts); an item
 * whose bytes cannot be located (an unknown construction method, a length past its container)
 * refuses the file, and the items' bytes together may not exceed the file's.
 */
import { type Box, BoxWalk } from "../heif/heif-boxes.js";
import { isMediaError } from "../media-error.js";
import { EmbeddedMetadataError, isEmbeddedMetadataError, within } from "./embedded-metadata-error.js";
import { mentionsGps } from "./mentions-gps.js";
import {
  applyZeroRanges,
  minimalExifTiff,
  openTiff,
  type TiffStripMode,
  tiffOrientation,
  tiffZeroRanges,
} from "./tiff-ifd.js";

type ItemKind = "exif" | "xmp";

interface Extent {
  start: number;
  end: number;
}

export function stripHeif(bytes: Uint8Array, mode: TiffStripMode): Buffer | null {
  try {
    return stripItems(bytes, mode);
  } catch (error) {
    if (isMediaError(error)) throw new EmbeddedMetadataError(error.message);
    throw error;
  }
}

function stripItems(bytes: Uint8Array, mode: TiffStripMode): Buffer | null {
  const walk = new BoxWalk(bytes);
  const metas = walk.children(0, bytes.length).filter((box) => box.type === "meta");
  if (metas.length !== 1) throw new EmbeddedMetadataError(`HEIF with ${metas.length} meta boxes`);
  const meta = metas[0] as Box;
  within(meta.body + 4, meta.end, "HEIF meta box");
  const boxes = walk.children(meta.body + 4, meta.end);
  const find = (type: string) => boxes.find((box) => box.type === type);
  const iinf = find("iinf");
  const items = iinf ? metadataItems(walk, iinf) : new Map<number, ItemKind>();
  if (items.size === 0) return null;
  const iloc = find("iloc");
  if (!iloc) throw new EmbeddedMetadataError("HEIF metadata items without an iloc box");
  const extents = itemExtents(walk, iloc, find("idat"), items, bytes.length);

  let out: Buffer | null = null;
  for (const [id, kind] of items) {
    const parts = extents.get(id);
    if (!parts) continue;
    const content = Buffer.concat(parts.map(({ start, end }) => bytes.subarray(start, end)));
    const replaced = kind === "exif" ? exifItem(content, mode) : xmpItem(content, mode);
    if (!replaced || replaced.equals(content)) continue;
    out ??= Buffer.from(bytes);
    let at = 0;
    for (const { start, end } of parts) {
      out.set(replaced.subarray(at, at + end - start), start);
      at += end - start;
    }
  }
  return out;
}

function metadataItems(walk: BoxWalk, iinf: Box): Map<number, ItemKind> {
  const reader = walk.reader(iinf, true);
  reader.uint(reader.version !== 0);
  const items = new Map<number, ItemKind>();
  for (const infe of walk.children(iinf.end - reader.remaining, iinf.end)) {
    if (infe.type !== "infe") continue;
    const entry = walk.reader(infe, true);
    if (entry.version < 2) continue;
    const id = entry.uint(entry.version !== 2);
    entry.skip(2);
    const type = entry.fourcc();
    if (type === "Exif") items.set(id, "exif");
    if (type !== "mime") continue;
    entry.cString();
    const contentType = entry.remaining > 0 ? entry.cString().toLowerCase() : "";
    if (contentType.includes("rdf+xml") || contentType.includes("xmp")) items.set(id, "xmp");
  }
  return items;
}

/** Where each metadata item's bytes are, as absolute ranges of the file. */
function itemExtents(
  walk: BoxWalk,
  iloc: Box,
  idat: Box | undefined,
  items: ReadonlyMap<number, ItemKind>,
  fileLength: number,
): Map<number, Extent[]> {
  const reader = walk.reader(iloc, true);
  const version = reader.version;
  if (version > 2) throw new EmbeddedMetadataError(`HEIF iloc version ${version}`);
  const sizes = reader.u8();
  const more = reader.u8();
  const offsetSize = sizes >> 4;
  const lengthSize = sizes & 0xf;
  const baseSize = more >> 4;
  const indexSize = version >= 1 ? more & 0xf : 0;
  const number = (size: number): number => {
    if (size === 0) return 0;
    if (size === 4) return reader.u32();
    if (size === 8) return reader.u32() * 2 ** 32 + reader.u32();
    throw new EmbeddedMetadataError(`HEIF iloc field of ${size} bytes`);
  };
  const count = reader.uint(version === 2);
  const found = new Map<number, Extent[]>();
  let total = 0;
  for (let index = 0; index < count; index++) {
    const id = reader.uint(version === 2);
    const method = version >= 1 ? reader.u16() & 0xf : 0;
    reader.skip(2);
    const base = number(baseSize);
    const extentCount = reader.u16();
    const extents: Extent[] = [];
    for (let extent = 0; extent < extentCount; extent++) {
      number(indexSize);
      const offset = number(offsetSize);
      const length = number(lengthSize);
      if (!items.has(id)) continue;
      const container = containerOf(method, idat, fileLength);
      const start = container.start + base + offset;
      const end = length === 0 ? container.end : start + length;
      within(end, container.end, "HEIF metadata item");
      total += end - start;
      within(total, fileLength, "HEIF metadata items");
      extents.push({ start, end });
    }
    if (items.has(id)) found.set(id, extents);
  }
  return found;
}

function containerOf(method: number, idat: Box | undefined, fileLength: number): Extent {
  if (method === 0) return { start: 0, end: fileLength };
  if (method === 1 && idat) return { start: idat.body, end: idat.end };
  throw new EmbeddedMetadataError(`HEIF metadata item with construction method ${method}`);
}

/** An `Exif` item: a 4-byte offset to the TIFF header, then the EXIF. */
function exifItem(content: Buffer, mode: TiffStripMode): Buffer | null {
  const tiffAt = content.length >= 4 ? 4 + content.readUInt32BE(0) : content.length;
  let tiff: ReturnType<typeof openTiff> | undefined;
  try {
    tiff = openTiff(content.subarray(Math.min(tiffAt, content.length)));
  } catch (error) {
    if (!isEmbeddedMetadataError(error)) throw error;
  }
  if (tiff && mode === "strip-location") {
    try {
      const ranges = tiffZeroRanges(tiff, mode, true);
      const copy = Buffer.from(content);
      applyZeroRanges(copy.subarray(tiffAt), ranges);
      return copy;
    } catch (error) {
      if (!isEmbeddedMetadataError(error)) throw error;
    }
  }
  const replaced = Buffer.alloc(content.length);
  const minimal = minimalExifTiff(tiff ? tiffOrientation(tiff) : 1);
  if (content.length >= 4 + minimal.length) replaced.set(minimal, 4);
  return replaced;
}

const EMPTY_XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/"/>';

function xmpItem(content: Buffer, mode: TiffStripMode): Buffer | null {
  if (mode === "strip-location" && !mentionsGps(content)) return null;
  const replaced = Buffer.alloc(content.length, 0x20);
  if (content.length >= EMPTY_XMP.length) replaced.write(EMPTY_XMP, 0, "latin1");
  return replaced;
}
