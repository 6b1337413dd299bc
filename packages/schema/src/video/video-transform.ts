/**
 * The video transformation model (issue #33): one step of directives, written with the image
 * grammar's URL syntax (`so_5,eo_15,w_400`, `thumb_ar`, `f_gif`). The grammar and every decision
 * behind it are documented in docs/TRANSFORMS.md ("Video"). A parsed model is canonical: sizes
 * are even, the ratio is in lowest terms, colours are hex, no-ops (`so_0`, `r_0`) are dropped.
 */

/** A pad colour (6 lowercase hex digits), or a blurred, scaled copy of the frame (strength 1..100). */
export type VideoBackground = { kind: "colour"; hex: string } | { kind: "blurred"; strength: number };

export interface VideoTransform {
  /** `thumb_ar`: a WebP still of the frame at `so` (default 0), keeping the aspect ratio. */
  thumb?: true;
  /** `w_`: output width, 1..4320, rounded up to even. */
  w?: number;
  /** `h_`: output height, 1..4320, rounded up to even. */
  h?: number;
  /** `ar_{w}:{h}`: positive integer terms, each at most 100, in lowest terms. */
  ar?: { w: number; h: number };
  /** `cm_`: fit inside w×h and pad (`pad_resize`), or fill w×h and crop the centre (`extract`). */
  cm?: "pad_resize" | "extract";
  /** `bg_`: what pads with `cm_pad_resize` (default black). */
  bg?: VideoBackground;
  /** `so_`: start offset in seconds (at most 3 decimals); 0 is dropped. */
  so?: number;
  /** `eo_`: end offset in seconds, after `so`; not with `d`. */
  eo?: number;
  /** `d_`: duration in seconds from `so`; not with `eo`. */
  d?: number;
  /** `f_gif`: an animated GIF instead of MP4. */
  f?: "gif";
  /** `flip_`: mirror horizontally, vertically or both. */
  flip?: "h" | "v" | "hv";
  /** `r_`: clockwise rotation; `r_0` is dropped, other angles are refused. */
  r?: 90 | 180 | 270;
}

/** Keys in canonical order; `thumb_ar` is written whole. */
export const VIDEO_TRANSFORM_KEYS = [
  "thumb",
  "so",
  "eo",
  "d",
  "w",
  "h",
  "ar",
  "cm",
  "bg",
  "flip",
  "r",
  "f",
] as const satisfies readonly (keyof VideoTransform)[];
export type VideoTransformKey = (typeof VIDEO_TRANSFORM_KEYS)[number];

/** Largest `w_`/`h_` of a video output (the hosted service's 4320, i.e. 8K UHD's height). */
export const MAX_VIDEO_DIMENSION = 4320;
/** Largest `ar_` term: ratios are of screens (16:9, 9:16, 4:5, 21:9), not arbitrary numbers. */
export const MAX_VIDEO_ASPECT_TERM = 100;
/**
 * Largest `so_`/`eo_`/`d_`, in seconds (a day). The grammar's bound only keeps values small and
 * exact; TROVE_VIDEO_MAX_DURATION_SECONDS bounds what a server accepts, and offsets past a
 * video's end are clamped at render time.
 */
export const MAX_VIDEO_OFFSET_SECONDS = 86_400;
/** Digits after the point of `so_`/`eo_`/`d_` (milliseconds). */
export const VIDEO_OFFSET_DECIMALS = 3;
/** `bg_blurred` without a strength means this one. */
export const DEFAULT_BLUR_STRENGTH = 20;
export const VIDEO_CROP_MODES = ["pad_resize", "extract"] as const;
export const VIDEO_ROTATIONS = [90, 180, 270] as const;

/** `st_{h}_{h}...`: rendition heights of an HLS ladder, each 144..2160, ascending, unique. */
export const MIN_STREAMING_HEIGHT = 144;
export const MAX_STREAMING_HEIGHT = 2160;
/** Renditions per ladder: each one is a transcode of the whole video. */
export const MAX_STREAMING_RENDITIONS = 8;
