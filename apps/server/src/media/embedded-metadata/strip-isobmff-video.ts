/**
 * MP4 and MOV (ISO-BMFF / QuickTime) originals: the location, device and owner metadata a phone
 * or camera writes, neutralised by renaming each box that holds it to `free` (same size, so no
 * chunk offset moves and nothing is re-muxed; players skip `free`). `findVideoMetadataBoxes`
 * answers the offsets of the 4-byte types to overwrite; the caller writes them where the bytes
 * are (in memory, or in the stored object: ../../uploads/strip-upload-video-metadata.ts).
 *
 * What goes, under `moov` and each `trak`/`mdia` (and in their `udta` and `meta` boxes):
 * - both modes: `©xyz` and `loci` (location), `meta`/`ilst` items whose `keys` name is
 *   `com.apple.quicktime.location.*` (or `location*`, as ffmpeg names them), and XMP (a top-level or `moov` XMP `uuid`, a `udta` `XMP_`)
 *   that mentions GPS;
 * - `strip` also: `©mak`, `©mod`, `©swr`, the keys `com.apple.quicktime.make|model|software` (or
 *   `make|model|software`), and every XMP.
 * `keep` never reaches here. WebM/Matroska tags are left as they are (phones do not write GPS
 * there; see apps/server/README.md).
 *
 * Bounds, as for HEIF (./strip-heif.ts): a box whose size runs past its container (or below its
 * own header) refuses the file (EmbeddedMetadataError, a 400 at upload); the walk visits at most
 * MAX_VIDEO_BOXES boxes and descends only into the few containers named above, to a fixed depth,
 * so a nesting bomb costs one box; a container it must read whole (`moov`, a top-level `meta`,
 * an XMP block) is read into memory only up to MAX_VIDEO_METADATA_BOX_BYTES. Top-level boxes
 * are read header by header, so `mdat` (the media, nearly all of the file) is never read.
 */
import { EmbeddedMetadataError } from "./embedded-metadata-error.js";
import { mentionsGps } from "./mentions-gps.js";
import type { TiffStripMode } from "./tiff-ifd.js";

export const MAX_VIDEO_BOXES = 20_000;
/** A 10-hour recording's `moov` is tens of MiB; a larger one is refused, not buffered. */
export const MAX_VIDEO_METADATA_BOX_BYTES = 64 * 1024 * 1024;

/** Random access to the file: `read` answers exactly `length` bytes at `offset` (inside the file). */
export interface VideoByteSource {
  readonly length: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export const FREE_BOX_TYPE = Buffer.from("free", "latin1");

const LOCATION_BOXES = new Set(["\u00a9xyz", "loci"]);
const DEVICE_BOXES = new Set(["\u00a9mak", "\u00a9mod", "\u00a9swr"]);
/** Apple's key names; ffmpeg (`-movflags use_metadata_tags`) writes the same ones without it. */
const APPLE_KEY_PREFIX = "com.apple.quicktime.";
const DEVICE_KEYS = new Set(["make", "model", "software"]);
/** The XMP packet's `uuid` (Adobe XMP specification part 3, ISO-BMFF). */
const XMP_UUID = Buffer.from("be7acfcb97a942e89c71999491e3afac", "hex");
/** Containers walked inside `moov` (and inside each other), and how deep. */
const CONTAINERS = new Set(["trak", "mdia", "udta", "meta"]);
const MAX_DEPTH = 6;

interface VideoBox {
  type: string;
  /** Offset of the box (its size field); the type is at `start + 4`. */
  start: number;
  /** Offset of the payload. */
  body: number;
  end: number;
}

/** Offsets (absolute, of the 4-byte box type) to overwrite with FREE_BOX_TYPE, in file order. */
export async function findVideoMetadataBoxes(
  source: VideoByteSource,
  mode: TiffStripMode,
): Promise<number[]> {
  const walk = new VideoMetadataWalk(mode);
  let offset = 0;
  while (offset < source.length) {
    const header = await source.read(offset, Math.min(32, source.length - offset));
    const box = walk.header(header, 0, header.length, offset, source.length - offset);
    offset = box.end;
    if (box.type === "moov" || box.type === "meta" || box.type === "udta") {
      const bytes = await readWhole(source, box);
      walk.container(
        bytes,
        { ...box, start: 0, body: box.body - box.start, end: bytes.length },
        box.start,
        0,
      );
    } else if (box.type === "uuid") {
      await walk.topLevelUuid(source, box, header);
    }
  }
  return walk.renames.sort((a, b) => a - b);
}

async function readWhole(source: VideoByteSource, box: VideoBox): Promise<Uint8Array> {
  const size = box.end - box.start;
  if (size > MAX_VIDEO_METADATA_BOX_BYTES) {
    throw new EmbeddedMetadataError(
      `the video's ${box.type} box is larger than ${MAX_VIDEO_METADATA_BOX_BYTES} bytes`,
    );
  }
  return source.read(box.start, size);
}

class VideoMetadataWalk {
  readonly renames: number[] = [];
  #visited = 0;

  constructor(readonly mode: TiffStripMode) {}

  /**
   * The box whose header starts at `at` of `bytes` (which holds `room` bytes of its container
   * from there; `bytes` may hold only the header). `base` maps `bytes` offsets to the file's.
   */
  header(bytes: Uint8Array, at: number, available: number, base: number, room: number): VideoBox {
    this.#visited += 1;
    if (this.#visited > MAX_VIDEO_BOXES) {
      throw new EmbeddedMetadataError(`the video has more than ${MAX_VIDEO_BOXES} boxes`);
    }
    if (room < 8 || available - at < 8) throw new EmbeddedMetadataError("a video box header is cut short");
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const type = Buffer.from(bytes.subarray(at + 4, at + 8)).toString("latin1");
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      if (room < 16 || available - at < 16)
        throw new EmbeddedMetadataError(`the video's ${type} box is cut short`);
      const large = view.getBigUint64(at + 8);
      size = large > BigInt(room) ? room + 1 : Number(large);
      header = 16;
    } else if (size === 0) {
      size = room;
    }
    if (size < header)
      throw new EmbeddedMetadataError(`the video's ${type} box is smaller than its own header`);
    if (size > room) throw new EmbeddedMetadataError(`the video's ${type} box runs past its container`);
    const start = base + at;
    return { type, start, body: start + header, end: start + size };
  }

  /** The boxes between `from` and `to` of `bytes` (offsets relative to `bytes`). */
  children(bytes: Uint8Array, from: number, to: number): VideoBox[] {
    const boxes: VideoBox[] = [];
    let offset = from;
    while (offset < to) {
      const box = this.header(bytes, offset, to, 0, to - offset);
      boxes.push(box);
      offset = box.end;
    }
    return boxes;
  }

  container(bytes: Uint8Array, box: VideoBox, base: number, depth: number): void {
    if (depth > MAX_DEPTH) return;
    if (box.type === "meta") {
      this.#meta(bytes, box, base, depth);
      return;
    }
    for (const child of this.children(bytes, box.body, box.end)) {
      if (this.#dropsBox(bytes, child)) this.#rename(child, base);
      else if (CONTAINERS.has(child.type)) this.container(bytes, child, base, depth + 1);
    }
  }

  async topLevelUuid(source: VideoByteSource, box: VideoBox, header: Uint8Array): Promise<void> {
    const at = box.body - box.start;
    if (header.length < at + 16 || !XMP_UUID.equals(header.subarray(at, at + 16))) return;
    if (this.mode === "strip") {
      this.renames.push(box.start + 4);
      return;
    }
    // strip-location: an XMP packet too large to read is dropped rather than kept unread.
    const gps =
      box.end - box.start > MAX_VIDEO_METADATA_BOX_BYTES || mentionsGps(await readWhole(source, box));
    if (gps) this.renames.push(box.start + 4);
  }

  #rename(box: VideoBox, base: number): void {
    this.renames.push(base + box.start + 4);
  }

  #dropsBox(bytes: Uint8Array, box: VideoBox): boolean {
    if (LOCATION_BOXES.has(box.type)) return true;
    const isXmp =
      box.type === "XMP_" ||
      (box.type === "uuid" &&
        box.end - box.body >= 16 &&
        XMP_UUID.equals(bytes.subarray(box.body, box.body + 16)));
    if (isXmp) return this.mode === "strip" || mentionsGps(bytes.subarray(box.body, box.end));
    return this.mode === "strip" && DEVICE_BOXES.has(box.type);
  }

  /**
   * A `meta` box: a FullBox in ISO files, a plain container in QuickTime ones (told apart by
   * whether `hdlr` follows the header directly). Its `ilst` items are named by `keys` (Apple's
   * `mdta` keys, items typed by their 1-based key index) or by their own type (iTunes style).
   */
  #meta(bytes: Uint8Array, box: VideoBox, base: number, depth: number): void {
    const quickTime =
      box.end - box.body >= 8 &&
      Buffer.from(bytes.subarray(box.body + 4, box.body + 8)).toString("latin1") === "hdlr";
    const from = quickTime ? box.body : box.body + 4;
    if (from > box.end) throw new EmbeddedMetadataError("the video's meta box is cut short");
    const children = this.children(bytes, from, box.end);
    const keysBox = children.find((child) => child.type === "keys");
    const keys = keysBox ? this.#keys(bytes, keysBox) : [];
    for (const child of children) {
      if (child.type === "ilst") this.#ilst(bytes, child, base, keys);
      else if (this.#dropsBox(bytes, child)) this.#rename(child, base);
      else if (CONTAINERS.has(child.type)) this.container(bytes, child, base, depth + 1);
    }
  }

  /** `keys`: version and flags, a count, then entries of size, namespace and name. */
  #keys(bytes: Uint8Array, box: VideoBox): string[] {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (box.end - box.body < 8) throw new EmbeddedMetadataError("the video's keys box is cut short");
    const count = view.getUint32(box.body + 4);
    const names: string[] = [];
    let offset = box.body + 8;
    for (let index = 0; index < count && offset < box.end; index++) {
      const entry = this.header(bytes, offset, box.end, 0, box.end - offset);
      names.push(Buffer.from(bytes.subarray(entry.body, entry.end)).toString("latin1"));
      offset = entry.end;
    }
    return names;
  }

  #ilst(bytes: Uint8Array, box: VideoBox, base: number, keys: readonly string[]): void {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (const item of this.children(bytes, box.body, box.end)) {
      // An Apple item's type is its 1-based index into `keys`.
      const name = keys[view.getUint32(item.start + 4) - 1];
      if (this.#dropsBox(bytes, item) || (name !== undefined && this.#dropsKey(name)))
        this.#rename(item, base);
    }
  }

  #dropsKey(key: string): boolean {
    const name = key.startsWith(APPLE_KEY_PREFIX) ? key.slice(APPLE_KEY_PREFIX.length) : key;
    if (name.startsWith("location")) return true;
    return this.mode === "strip" && DEVICE_KEYS.has(name);
  }
}
