import { MediaError } from "../media-error.js";
import { fourcc } from "./heif-brands.js";

/**
 * A bounded walk over ISOBMFF boxes for the HEIF header parser. Every box's size is checked
 * against its container before anything is read from it (a size that lies past its container,
 * or below its own header, is refused: that is also what a truncated file looks like); every
 * read is checked against the box it belongs to; and the walk as a whole visits at most
 * MAX_HEIF_BOXES boxes. Nothing recurses on the file's say-so: the parser descends only into the
 * few containers it knows, to a fixed depth, so a nesting bomb costs one box.
 */
export const MAX_HEIF_BOXES = 20_000;

export interface Box {
  type: string;
  /** Offset of the payload, after the size/type header. */
  body: number;
  /** Offset just past the box. */
  end: number;
}

export function malformedHeif(why: string): MediaError {
  return new MediaError(
    "UNSUPPORTED_MEDIA_TYPE",
    `image could not be decoded: its HEIF header is malformed (${why})`,
  );
}

export class BoxWalk {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  #visited = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The boxes between `start` and `end` (a container's payload), in order. */
  children(start: number, end: number): Box[] {
    const boxes: Box[] = [];
    let offset = start;
    while (offset < end) {
      this.#visited += 1;
      if (this.#visited > MAX_HEIF_BOXES) throw malformedHeif(`more than ${MAX_HEIF_BOXES} boxes`);
      const room = end - offset;
      if (room < 8) throw malformedHeif("a box header is cut short");
      const type = fourcc(this.bytes, offset + 4);
      let size = this.view.getUint32(offset);
      let header = 8;
      if (size === 1) {
        if (room < 16) throw malformedHeif(`the ${type} box's 64-bit size is cut short`);
        const large = this.view.getBigUint64(offset + 8);
        if (large > BigInt(room)) throw malformedHeif(`the ${type} box runs past its container`);
        size = Number(large);
        header = 16;
      } else if (size === 0) {
        size = room;
      }
      if (size < header) throw malformedHeif(`the ${type} box is smaller than its own header`);
      if (size > room) throw malformedHeif(`the ${type} box runs past its container`);
      boxes.push({ type, body: offset + header, end: offset + size });
      offset += size;
    }
    return boxes;
  }

  /** A reader over a box's payload; `full` skips a FullBox's version and flags (see `version`). */
  reader(box: Box, full: boolean): BoxReader {
    const reader = new BoxReader(this, box);
    if (full) reader.skip(4);
    return reader;
  }
}

/** Sequential reads inside one box; reading past its end is a malformed file. */
export class BoxReader {
  readonly #walk: BoxWalk;
  readonly #box: Box;
  #position: number;

  constructor(walk: BoxWalk, box: Box) {
    this.#walk = walk;
    this.#box = box;
    this.#position = box.body;
  }

  /** The FullBox version (the payload's first byte). */
  get version(): number {
    return this.#walk.bytes[this.#box.body] ?? 0;
  }

  /** The FullBox flags (the three bytes after the version). */
  get flags(): number {
    const { view } = this.#walk;
    if (this.#box.end - this.#box.body < 4) throw malformedHeif(`the ${this.#box.type} box is cut short`);
    return view.getUint32(this.#box.body) & 0xffffff;
  }

  get remaining(): number {
    return this.#box.end - this.#position;
  }

  skip(count: number): void {
    this.#need(count);
    this.#position += count;
  }

  u8(): number {
    this.#need(1);
    return this.#walk.view.getUint8(this.#position++);
  }

  u16(): number {
    this.#need(2);
    const value = this.#walk.view.getUint16(this.#position);
    this.#position += 2;
    return value;
  }

  u32(): number {
    this.#need(4);
    const value = this.#walk.view.getUint32(this.#position);
    this.#position += 4;
    return value;
  }

  /** A 16- or 32-bit field, as FullBox versions choose between them. */
  uint(wide: boolean): number {
    return wide ? this.u32() : this.u16();
  }

  fourcc(): string {
    this.#need(4);
    const value = fourcc(this.#walk.bytes, this.#position);
    this.#position += 4;
    return value;
  }

  /** A NUL-terminated string inside the box (or up to its end). */
  cString(): string {
    const { bytes } = this.#walk;
    let end = this.#position;
    while (end < this.#box.end && bytes[end] !== 0) end += 1;
    const value = new TextDecoder().decode(bytes.subarray(this.#position, end));
    this.#position = Math.min(end + 1, this.#box.end);
    return value;
  }

  #need(count: number): void {
    if (this.#position + count > this.#box.end) throw malformedHeif(`the ${this.#box.type} box is cut short`);
  }
}
