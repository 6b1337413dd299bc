/**
 * A container rewritten as pieces: ranges of the input kept as they are, and new bytes in
 * between. Nothing is copied until `join`, and only when a piece was dropped or replaced: a file
 * with nothing to strip costs one pass and no allocation.
 */
export class BytePieces {
  private readonly pieces: Uint8Array[] = [];
  changed = false;

  constructor(private readonly input: Uint8Array) {}

  keep(start: number, end: number): void {
    if (end > start) this.pieces.push(this.input.subarray(start, end));
  }

  /** Leaves `start..end` out (a no-op for an empty range). */
  drop(start: number, end: number): void {
    if (end > start) this.changed = true;
  }

  add(bytes: Uint8Array): void {
    this.changed = true;
    this.pieces.push(bytes);
  }

  /** The new bytes, or null when nothing changed. */
  join(): Buffer | null {
    return this.changed ? Buffer.concat(this.pieces) : null;
  }
}
