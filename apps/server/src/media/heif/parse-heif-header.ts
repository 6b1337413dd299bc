import type { ParsedHeader } from "../parsed-header.js";
import { type Box, type BoxReader, BoxWalk, malformedHeif } from "./heif-boxes.js";
import { heifKind } from "./heif-brands.js";

/**
 * What a HEIF container says about its primary image, read from the boxes (`meta`: `pitm`,
 * `iinf`, `iref`, `iprp`/`ipco`/`ipma`), never from the coded pixels. Width and height are as
 * displayed: the `clap` and `irot` properties are applied in their `ipma` order, as libheif
 * applies them when it decodes, so `exifOrientation` is always 1 (HEIF's own rotation is part of
 * the decoded pixels; an EXIF orientation inside a HEIC is ignored, as the standard says).
 */
export interface HeifHeader extends ParsedHeader {
  mimeType: "image/heic" | "image/heif";
  /** Pixels the decoder allocates for the primary image: its `ispe`, before `clap` and `irot`. */
  codedPixels: number;
  /** For a `grid` primary image: its tiles (`dimg` references) and their `ispe` pixels together. */
  grid?: { tiles: number; tilePixels: number };
}

/** Item types the WebAssembly decoder can decode: HEVC (libde265), and grids of HEVC tiles. */
const HEVC_ITEM = "hvc1";
const GRID_ITEM = "grid";
const ALPHA_AUX_TYPES = new Set([
  "urn:mpeg:hevc:2015:auxid:1",
  "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha",
]);

interface Meta {
  walk: BoxWalk;
  primary: number;
  itemTypes: Map<number, string>;
  /** `dimg` references: derived item -> its inputs, in order. */
  derived: Map<number, number[]>;
  /** `auxl` references: auxiliary item -> the items it belongs to. */
  auxiliary: Map<number, number[]>;
  properties: Box[];
  /** Item -> indexes into `properties` (0-based), in ipma order. */
  associations: Map<number, number[]>;
}

/**
 * Parses `bytes` (a whole HEIF file) or throws a MediaError (UNSUPPORTED_MEDIA_TYPE) naming what
 * is wrong. Linear in the file's size: each box is visited once and every count a box declares is
 * bounded by the bytes it holds. The caller checks the sizes against the media limits.
 */
export function parseHeifHeader(bytes: Uint8Array): HeifHeader {
  const kind = heifKind(bytes);
  if (kind?.format !== "heic") throw malformedHeif("no HEIF ftyp box");
  const meta = readMeta(bytes);
  const type = meta.itemTypes.get(meta.primary);
  if (type === undefined) throw malformedHeif(`the primary item ${meta.primary} has no item info`);
  if (type !== HEVC_ITEM && type !== GRID_ITEM) {
    throw malformedHeif(
      `the primary image is coded as ${JSON.stringify(type)}; only HEVC (hvc1) and grids of it are decoded`,
    );
  }
  const coded = sizeOf(meta, meta.primary);
  const header: HeifHeader = {
    mimeType: kind.mimeType,
    ...displayedSize(meta, coded),
    exifOrientation: 1,
    hasAlpha: hasAlpha(meta),
    pages: 1,
    codedPixels: coded.width * coded.height,
  };
  if (type === GRID_ITEM) header.grid = gridOf(meta);
  return header;
}

function readMeta(bytes: Uint8Array): Meta {
  const walk = new BoxWalk(bytes);
  const top = walk.children(0, bytes.length);
  const metaBox = top.find((box) => box.type === "meta");
  if (metaBox === undefined) throw malformedHeif("no meta box");
  const boxes = walk.children(metaBox.body + 4, metaBox.end);
  const find = (type: string) => boxes.find((box) => box.type === type);

  const hdlr = find("hdlr");
  if (hdlr === undefined) throw malformedHeif("no hdlr box");
  const handler = walk.reader(hdlr, true);
  handler.skip(4);
  if (handler.fourcc() !== "pict") throw malformedHeif("the meta box is not for a picture");

  const pitm = find("pitm");
  if (pitm === undefined) throw malformedHeif("no pitm box");
  const pitmReader = walk.reader(pitm, true);
  const primary = pitmReader.uint(pitmReader.version !== 0);

  const iprp = find("iprp");
  const iprpBoxes = iprp ? walk.children(iprp.body, iprp.end) : [];
  const ipco = iprpBoxes.find((box) => box.type === "ipco");
  if (ipco === undefined) throw malformedHeif("no ipco box");

  const iref = find("iref");
  const references = iref ? readReferences(walk, iref) : { derived: new Map(), auxiliary: new Map() };
  return {
    walk,
    primary,
    itemTypes: readItemTypes(walk, find("iinf")),
    ...references,
    properties: walk.children(ipco.body, ipco.end),
    associations: readAssociations(
      walk,
      iprpBoxes.filter((box) => box.type === "ipma"),
    ),
  };
}

function readItemTypes(walk: BoxWalk, iinf: Box | undefined): Map<number, string> {
  if (iinf === undefined) throw malformedHeif("no iinf box");
  const reader = walk.reader(iinf, true);
  reader.uint(reader.version !== 0);
  const types = new Map<number, string>();
  const entriesStart = iinf.end - reader.remaining;
  for (const infe of walk.children(entriesStart, iinf.end)) {
    if (infe.type !== "infe") continue;
    const entry = walk.reader(infe, true);
    // Versions 0 and 1 carry no item type: such items are never images the parser vouches for.
    if (entry.version < 2) continue;
    const id = entry.uint(entry.version !== 2);
    entry.skip(2);
    types.set(id, entry.fourcc());
  }
  return types;
}

function readReferences(walk: BoxWalk, iref: Box): Pick<Meta, "derived" | "auxiliary"> {
  const reader = walk.reader(iref, true);
  const wide = reader.version !== 0;
  const derived = new Map<number, number[]>();
  const auxiliary = new Map<number, number[]>();
  for (const reference of walk.children(iref.body + 4, iref.end)) {
    const target = reference.type === "dimg" ? derived : reference.type === "auxl" ? auxiliary : undefined;
    if (target === undefined) continue;
    const entry = walk.reader(reference, false);
    const from = entry.uint(wide);
    const count = entry.u16();
    // Each id is read from the box, so a count that lies runs into the box's end, not past it.
    const to = target.get(from) ?? [];
    for (let index = 0; index < count; index += 1) to.push(entry.uint(wide));
    target.set(from, to);
  }
  return { derived, auxiliary };
}

function readAssociations(walk: BoxWalk, ipmas: Box[]): Map<number, number[]> {
  const associations = new Map<number, number[]>();
  for (const ipma of ipmas) {
    const reader = walk.reader(ipma, true);
    const wideIds = reader.version >= 1;
    const wideIndexes = (reader.flags & 1) === 1;
    const entries = reader.u32();
    for (let entry = 0; entry < entries; entry += 1) {
      const id = reader.uint(wideIds);
      const count = reader.u8();
      const indexes = associations.get(id) ?? [];
      for (let index = 0; index < count; index += 1) {
        const value = wideIndexes ? reader.u16() & 0x7fff : reader.u8() & 0x7f;
        // Index 0 means "no property"; the rest are 1-based.
        if (value !== 0) indexes.push(value - 1);
      }
      associations.set(id, indexes);
    }
  }
  return associations;
}

/** The properties of `item`, in ipma order, each checked to exist. */
function propertiesOf(meta: Meta, item: number): Box[] {
  return (meta.associations.get(item) ?? []).map((index) => {
    const property = meta.properties[index];
    if (property === undefined)
      throw malformedHeif(`item ${item} names property ${index + 1}, which does not exist`);
    return property;
  });
}

/** The coded size of `item`: its `ispe` property, which HEIF requires of every image item. */
function sizeOf(meta: Meta, item: number): { width: number; height: number } {
  const ispe = propertiesOf(meta, item).find((property) => property.type === "ispe");
  if (ispe === undefined) throw malformedHeif(`item ${item} has no ispe (image size) property`);
  const reader = meta.walk.reader(ispe, true);
  const width = reader.u32();
  const height = reader.u32();
  if (width === 0 || height === 0) throw malformedHeif(`item ${item} declares a ${width}×${height} image`);
  return { width, height };
}

/** The primary image as displayed: `clap` crops and `irot` turns, in the order ipma lists them. */
function displayedSize(
  meta: Meta,
  coded: { width: number; height: number },
): { width: number; height: number } {
  let { width, height } = coded;
  for (const property of propertiesOf(meta, meta.primary)) {
    if (property.type === "irot") {
      const angle = meta.walk.reader(property, false).u8() & 3;
      if (angle % 2 === 1) [width, height] = [height, width];
    } else if (property.type === "clap") {
      const reader = meta.walk.reader(property, false);
      width = cleanApertureSize(reader, width);
      height = cleanApertureSize(reader, height);
      reader.skip(16);
    }
  }
  return { width, height };
}

/** One dimension of a `clap` (a fraction), rounded as libheif rounds it, within the image. */
function cleanApertureSize(reader: BoxReader, full: number): number {
  const numerator = reader.u32() | 0;
  const denominator = reader.u32() | 0;
  if (denominator <= 0 || numerator <= 0)
    throw malformedHeif("a clean aperture (clap) is not a positive fraction");
  const size = Math.round(numerator / denominator);
  if (size < 1 || size > full) throw malformedHeif("a clean aperture (clap) is larger than its image");
  return size;
}

function gridOf(meta: Meta): { tiles: number; tilePixels: number } {
  const tiles = meta.derived.get(meta.primary) ?? [];
  if (tiles.length === 0) throw malformedHeif("a grid image has no tiles");
  let tilePixels = 0;
  for (const tile of tiles) {
    if (meta.itemTypes.get(tile) !== HEVC_ITEM) throw malformedHeif(`grid tile ${tile} is not an HEVC image`);
    const { width, height } = sizeOf(meta, tile);
    tilePixels += width * height;
  }
  return { tiles: tiles.length, tilePixels };
}

/** An alpha plane: an auxiliary image of the primary whose `auxC` type is alpha. */
function hasAlpha(meta: Meta): boolean {
  for (const [item, owners] of meta.auxiliary) {
    if (!owners.includes(meta.primary)) continue;
    const auxC = propertiesOf(meta, item).find((property) => property.type === "auxC");
    if (auxC !== undefined && ALPHA_AUX_TYPES.has(meta.walk.reader(auxC, true).cString())) return true;
  }
  return false;
}
