import * as z from "zod";

/** `#rrggbb`, lowercase. */
const hexColorSchema = z.string().regex(/^#[0-9a-f]{6}$/);

/**
 * Trove's addition to every file record: an image's placeholder, null for anything that is not a
 * raster image, for an image that could not be decoded, and until it is computed (in the
 * background, shortly after the upload: the upload response usually carries null).
 * `thumbhash` is a ThumbHash in base64 (decode it with `@trove/sdk/placeholder`), `color` the
 * dominant colour, `data_url` a tiny WebP `data:` URL of at most 1 KiB.
 */
export const placeholderSchema = z.object({
  thumbhash: z.string(),
  color: hexColorSchema,
  data_url: z.string().startsWith("data:image/webp;base64,").max(1024),
});
export type Placeholder = z.infer<typeof placeholderSchema>;

/** A list row's placeholder: no `data_url`, so a page of rows stays small. */
export const listPlaceholderSchema = placeholderSchema.pick({ thumbhash: true, color: true });
export type ListPlaceholder = z.infer<typeof listPlaceholderSchema>;
