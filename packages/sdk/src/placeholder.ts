// `@trove/sdk/placeholder`: turns a file record's `placeholder` into an image URL to show while the
// real image loads. Its own entry so that the ThumbHash decoder (about 2 kB minified) is only in
// the bundles of pages that show placeholders, never in `@trove/sdk` or `@trove/sdk/upload`.
//
//   import { placeholderUrl } from "@trove/sdk/placeholder";
//   <img style={{ backgroundImage: `url("${placeholderUrl(file.placeholder)}")` }} ... />
//
// Pure JavaScript (atob/btoa, no DOM), so it runs the same in a browser, in Node and during
// server rendering.
import { thumbHashToAverageRGBA, thumbHashToDataURL } from "thumbhash";

/** A record's `placeholder`: details and upload responses carry `data_url`, list rows do not. */
export interface PlaceholderInput {
  thumbhash: string;
  color?: string;
  data_url?: string | undefined;
}

/** The ThumbHash (base64, as Trove sends it) as its bytes; TypeError when it is not base64. */
function thumbHashBytes(thumbhash: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(thumbhash);
  } catch {
    throw new TypeError("placeholder: the thumbhash is not base64");
  }
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * Decodes a ThumbHash to a `data:image/png;base64,...` URL of a small (at most 32 px) blurred
 * rendition, with the image's aspect ratio. Throws a TypeError on a string that is not base64.
 */
export function thumbHashToDataUrl(thumbhash: string): string {
  return thumbHashToDataURL(thumbHashBytes(thumbhash));
}

/** The ThumbHash's average colour as `rgba(r, g, b, a)`. */
export function thumbHashAverageColor(thumbhash: string): string {
  const { r, g, b, a } = thumbHashToAverageRGBA(thumbHashBytes(thumbhash));
  const channel = (value: number) => Math.round(value * 255);
  return `rgba(${channel(r)}, ${channel(g)}, ${channel(b)}, ${Number(a.toFixed(3))})`;
}

/**
 * The URL to show for a record's placeholder: its `data_url` when the record has one (details,
 * upload responses), else its ThumbHash decoded here (list rows). Null for a null placeholder.
 */
export function placeholderUrl(placeholder: PlaceholderInput | null | undefined): string | null {
  if (!placeholder) return null;
  return placeholder.data_url ?? thumbHashToDataUrl(placeholder.thumbhash);
}
