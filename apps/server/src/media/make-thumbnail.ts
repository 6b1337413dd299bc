import type { Sharp } from "sharp";

/** The thumbnail fits in a square of this side. */
export const THUMBNAIL_MAX_SIZE = 256;

export interface Thumbnail {
  buffer: Buffer;
  mimeType: "image/webp";
  format: "webp";
  width: number;
  height: number;
}

/** WebP (alpha kept), inside THUMBNAIL_MAX_SIZE², never enlarged. */
export async function makeThumbnail(image: Sharp): Promise<Thumbnail> {
  const { data, info } = await image
    .resize({
      width: THUMBNAIL_MAX_SIZE,
      height: THUMBNAIL_MAX_SIZE,
      fit: "inside",
      withoutEnlargement: true,
    })
    .webp({ quality: 70 })
    .toBuffer({ resolveWithObject: true });
  return { buffer: data, mimeType: "image/webp", format: "webp", width: info.width, height: info.height };
}
