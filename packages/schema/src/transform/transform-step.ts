import type { ColourName } from "./colour.js";
import type { Effect } from "./effect.js";

/**
 * Keys in canonical order: a canonical string writes a step's directives in this order. `t` (a
 * named transform) is always alone in its step, so its place only matters to this list.
 */
export const TRANSFORM_KEYS = [
  "t",
  "w",
  "h",
  "ar",
  "c",
  "p",
  "f",
  "q",
  "r",
  "flip",
  "bg",
  "br",
  "e",
] as const;
export type TransformKey = (typeof TRANSFORM_KEYS)[number];

export const CROP_MODES = ["fill", "fit", "limit", "scale", "pad", "crop"] as const;
export type CropMode = (typeof CROP_MODES)[number];

export const GRAVITIES = ["c", "t", "b", "l", "r", "tl", "tr", "bl", "br", "entropy", "attention"] as const;
export type Gravity = (typeof GRAVITIES)[number];

export const IMAGE_FORMATS = ["jpg", "jpeg", "png", "webp", "avif", "gif", "auto"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const FLIPS = ["h", "v", "hv"] as const;
export type Flip = (typeof FLIPS)[number];

/** `W:H`; both terms positive, at most 9999.99, with at most two decimals. */
export interface AspectRatio {
  w: number;
  h: number;
}

/**
 * One step of a transformation: the directives written between two `/`. Every key is
 * optional; a key appears at most once per step.
 */
export interface TransformStep {
  /**
   * A named transform (`t_card`): a transformation the workspace defines under that name, 1 to
   * 64 of `a-z`, `0-9`, `_` and `-`. Alone in its step; the server replaces it by its definition
   * before rendering, so the grammar keeps it as written.
   */
  t?: string;
  /** Target width, integer 1..8192. */
  w?: number;
  /** Target height, integer 1..8192. */
  h?: number;
  /** Aspect ratio; needs exactly one of `w` or `h` in the same step and derives the other. */
  ar?: AspectRatio;
  /** Crop mode; `fill` is the default when both `w` and `h` are given. */
  c?: CropMode;
  /** Gravity or strategy for `fill` and `crop`. */
  p?: Gravity;
  /** Output format; `jpeg` is canonicalised to `jpg`. */
  f?: ImageFormat;
  /** Output quality, integer 1..100, or `auto`. */
  q?: number | "auto";
  /** Rotation in integer degrees, -360..360; canonicalised into 0..359. */
  r?: number;
  flip?: Flip;
  /** Background: a colour name (lowercase) or a 6-digit hex colour without `#`. */
  bg?: ColourName | (string & {});
  /** Corner radius, integer 0..8192 pixels, or `max` for a circle or ellipse. */
  br?: number | "max";
  e?: Effect;
}

/** Steps apply left to right. */
export type Transformation = TransformStep[];
