/**
 * The raster formats the pipeline decodes: what the prebuilt libvips reads natively and safely,
 * and HEIC, which libvips cannot decode (no HEVC decoder in the prebuilt build) and libheif does,
 * in WebAssembly in a worker (./heif/). SVG and PDF are deliberately absent (see
 * sniff-content.ts); so are BMP and PSD (only through ImageMagick, which is not bundled).
 */
export const RASTER_FORMATS = ["jpeg", "png", "webp", "gif", "avif", "tiff", "heic"] as const;
export type RasterFormat = (typeof RASTER_FORMATS)[number];

/**
 * What the pipeline writes. HEIC is read but never written (there is no HEVC encoder). TIFF is
 * written only when `f_tiff` asks for it (print and archive workflows): browsers do not display
 * it, so a TIFF transformed without `f` becomes a browser format (BROWSER_FORMATS).
 */
export const OUTPUT_FORMATS = ["jpeg", "png", "webp", "gif", "avif", "tiff"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The output formats a variant without `f` keeps from its source. */
export const BROWSER_FORMATS = ["jpeg", "png", "webp", "gif", "avif"] as const;

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

export function isBrowserFormat(format: string): format is (typeof BROWSER_FORMATS)[number] {
  return (BROWSER_FORMATS as readonly string[]).includes(format);
}
