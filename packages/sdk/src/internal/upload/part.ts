/** A part's bytes as sent: a slice of a Blob, or bytes read from a stream. */
export type PartBody = Blob | Uint8Array<ArrayBuffer>;

/** One part of a multipart upload: its index (0-based), bytes and size. */
export interface Part {
  index: number;
  body: PartBody;
  size: number;
}

/** Hands out the parts still to send, one at a time; undefined when none is left. */
export interface PartFeed {
  next(): Promise<Part | undefined>;
  /** Releases the input (cancels a stream that was not read to its end). */
  close(): Promise<void>;
}
