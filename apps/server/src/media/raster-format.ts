/**
 * The raster formats the pipeline decodes: what the prebuilt libvips reads natively and safely,
 * and HEIC, which libvips cannot decode (no HEVC decoder in the prebuilt build) and libheif does,
 * in WebAssembly in a worker (./heif/). SVG and PDF are deliberately absent (see
 * sniff-content.ts); so are BMP and PSD (only through ImageMagick, which is not bundled).
 */
export const RASTER_FORMATS = ["jpeg", "png", "webp", "gif", "avif", "tiff", "heic"] as const;
export type RasterFormat = (typeof RASTER_FORMATS)[number];

/**
 * What the pipeline writes. TIFF and HEIC are read but not written: most browsers do not display
 * them (and there is no HEVC encoder).
 */
export const OUTPUT_FORMATS = ["jpeg", "png", "webp", "gif", "avif"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const FORMAT_MIME_TYPES: Record<RasterFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
  tiff: "image/tiff",
  // A HEIF whose brands are not HEVC's is image/heif (heif-brands.ts); its header says so.
  heic: "image/heic",
};

export const FORMAT_EXTENSIONS: Record<RasterFormat, string> = {
  jpeg: "jpg",
  png: "png",
  webp: "webp",
  gif: "gif",
  avif: "avif",
  tiff: "tif",
  heic: "heic",
};

export function isRasterFormat(format: string): format is RasterFormat {
  return (RASTER_FORMATS as readonly string[]).includes(format);
}

export function isOutputFormat(format: string): format is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(format);
}
