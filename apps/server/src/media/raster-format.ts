/**
 * The raster formats the pipeline decodes: what the prebuilt libvips reads natively and safely.
 * SVG and PDF are deliberately absent (see sniff-content.ts); so are HEIC (no decoder in the
 * prebuilt libvips), BMP and PSD (only through ImageMagick, which is not bundled).
 */
export const RASTER_FORMATS = ["jpeg", "png", "webp", "gif", "avif", "tiff"] as const;
export type RasterFormat = (typeof RASTER_FORMATS)[number];

/** What the pipeline writes. TIFF is read but not written: browsers do not display it. */
export const OUTPUT_FORMATS = ["jpeg", "png", "webp", "gif", "avif"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const FORMAT_MIME_TYPES: Record<RasterFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
  tiff: "image/tiff",
};

export const FORMAT_EXTENSIONS: Record<RasterFormat, string> = {
  jpeg: "jpg",
  png: "png",
  webp: "webp",
  gif: "gif",
  avif: "avif",
  tiff: "tif",
};

export function isRasterFormat(format: string): format is RasterFormat {
  return (RASTER_FORMATS as readonly string[]).includes(format);
}

export function isOutputFormat(format: string): format is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(format);
}
