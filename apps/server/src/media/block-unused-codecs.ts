import sharp from "sharp";

/**
 * libvips classes of the loaders and savers Trove uses: RASTER_FORMATS in, OUTPUT_FORMATS out
 * (plus TIFF, which tests and tools write). Each is a parent class: unblocking it unblocks its
 * file, buffer and source variants. GIF is read by the built-in nsgif and written by cgif; AVIF
 * goes through HEIF both ways; PNG is written by libspng or libpng, whichever libvips has.
 * Raw pixels (every frame between two operations, the rounded-corner mask) are memory images
 * and sharp's `create` is a libvips generator: neither is a loader, so neither is affected.
 */
export const USED_CODECS = [
  "VipsForeignLoadJpeg",
  "VipsForeignLoadPng",
  "VipsForeignLoadWebp",
  "VipsForeignLoadNsgif",
  "VipsForeignLoadHeif",
  "VipsForeignLoadTiff",
  "VipsForeignSaveJpeg",
  "VipsForeignSavePng",
  "VipsForeignSaveSpng",
  "VipsForeignSaveWebp",
  "VipsForeignSaveCgif",
  "VipsForeignSaveHeif",
  "VipsForeignSaveTiff",
] as const;

let blocked = false;

/**
 * Blocks every libvips loader and saver except USED_CODECS, for the whole process. An allowlist,
 * not a list of the dangerous ones: whatever the libvips build carries (the prebuilt one has
 * SVG, the VIPS native format, Ultra HDR, Matrix and CSV; a system libvips may add PDF,
 * ImageMagick, OpenSlide, FITS, OpenEXR, JPEG XL, PPM, Radiance, Analyze...), only the
 * loaders Trove needs can ever parse a byte. A blocked loader is skipped when libvips looks
 * for one that claims the input, so such content is "unsupported" (a 400), never decoded.
 * The media pipeline already refuses anything that does not sniff as a raster format before
 * libvips sees it; this is the second line behind that.
 *
 * Process-wide, as libvips' operation table is: openImage calls it before any client image
 * reaches libvips, and the server calls it at start. Idempotent and cheap.
 */
export function blockUnusedCodecs(): void {
  if (blocked) return;
  sharp.block({ operation: ["VipsForeignLoad", "VipsForeignSave"] });
  sharp.unblock({ operation: [...USED_CODECS] });
  blocked = true;
}
