/**
 * What the components read of a file record (details, list row or upload response): its pixel
 * size, so the element keeps its box before the media loads. Shared by <TroveImage> and
 * <TroveVideo>, which both take a record as `src` or as `file`.
 */
import type { DeliveryTarget } from "@trove/sdk";

export interface FileRecordSize {
  width?: number | null | undefined;
  height?: number | null | undefined;
  /** The details' form of width and height. */
  dimensions?: { width: number | null; height: number | null } | undefined;
}

/** `src` when it is a file record (not a string, nor a source object, which has no record). */
export function recordOf<T>(src: DeliveryTarget): T | null {
  return typeof src === "object" && src !== null && !("origin" in src) ? (src as T) : null;
}

export function recordSize(
  file: FileRecordSize | null | undefined,
): { width: number; height: number } | undefined {
  const width = file?.width ?? file?.dimensions?.width;
  const height = file?.height ?? file?.dimensions?.height;
  return width && height ? { width, height } : undefined;
}
