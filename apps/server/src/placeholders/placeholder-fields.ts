/**
 * A file row's placeholder columns as the wire's `placeholder` (@trove/schema placeholder.ts):
 * the whole object where a single record is sent, and without `data_url` in list rows. Null
 * until the sweep has computed it, and for good when there is none (not an image, undecodable).
 */
import type { ListPlaceholder, Placeholder } from "@trove/schema";
import type { File } from "../generated/prisma/client.js";

export type PlaceholderColumns = Pick<File, "placeholderThumbhash" | "placeholderColor">;

export function toPlaceholder(
  row: PlaceholderColumns & Pick<File, "placeholderDataUrl">,
): Placeholder | null {
  const listed = toListPlaceholder(row);
  return listed && row.placeholderDataUrl ? { ...listed, data_url: row.placeholderDataUrl } : null;
}

export function toListPlaceholder(row: PlaceholderColumns): ListPlaceholder | null {
  return row.placeholderThumbhash && row.placeholderColor
    ? { thumbhash: row.placeholderThumbhash, color: row.placeholderColor }
    : null;
}
