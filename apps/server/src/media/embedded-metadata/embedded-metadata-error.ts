/**
 * The one error the metadata stripper throws: the file's container (or a metadata block the mode
 * must edit) could not be parsed within its own bounds. The upload step turns it into a 400 rather
 * than store a file whose location it could not remove.
 */
export class EmbeddedMetadataError extends Error {
  override readonly name = "EmbeddedMetadataError";
}

export function isEmbeddedMetadataError(error: unknown): error is EmbeddedMetadataError {
  return error instanceof EmbeddedMetadataError;
}

/** Throws unless `end` (an offset computed from length fields) lies within `limit`. */
export function within(end: number, limit: number, what: string): void {
  if (!Number.isSafeInteger(end) || end < 0 || end > limit) {
    throw new EmbeddedMetadataError(`${what} runs past the end of the file`);
  }
}
