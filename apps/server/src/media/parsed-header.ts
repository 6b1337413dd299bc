/**
 * A raster header as read from the bytes by this module's own parsers (parse-*-header.ts),
 * before the pixel limit and EXIF orientation are applied. Width and height are as stored.
 */
export interface ParsedHeader {
  width: number;
  height: number;
  /** 1..8; 1 without EXIF. */
  exifOrientation: number;
  hasAlpha: boolean;
  pages: number;
}

/**
 * The parsers stop walking a file after this many markers, chunks or blocks and leave it to
 * libvips (on its own threads): a hostile chain of tiny segments costs the event loop at most
 * this many steps.
 */
export const MAX_HEADER_STEPS = 1000;
