import type { ColourName } from "./colour.js";
import type { Effect } from "./effect.js";
import type { FocusSubject } from "./focus-subject.js";
import type { Layer } from "./layer.js";

/**
 * Keys in canonical order: a canonical string writes a step's directives in this order, then
 * the step's layer blocks in written order. `t` (a named transform) is alone in its step once
 * read (`t_card,q_90` is the steps `t_card` and `q_90`), so its place only matters to this list. Keys added for issue #32 come after the old ones'
 * relative order is kept, so every string that was canonical before still is.
 */
export const TRANSFORM_KEYS = [
  "t",
  "w",
  "h",
  "ar",
  "c",
  "p",
  "ps",
  "fo",
  "z",
  "dpr",
  "f",
  "q",
  "r",
  "flip",
  "bg",
  "br",
  "o",
  "fl",
  "e",
] as const;
export type TransformKey = (typeof TRANSFORM_KEYS)[number];

export const CROP_MODES = ["fill", "fit", "limit", "scale", "pad", "crop"] as const;
export type CropMode = (typeof CROP_MODES)[number];

/** Canonical gravities: the short anchors, the two strategies and `face`. */
export const GRAVITIES = [
  "c",
  "t",
  "b",
  "l",
  "r",
  "tl",
  "tr",
  "bl",
  "br",
  "entropy",
  "attention",
  "face",
] as const;
/** The SDK's long anchor names, read and canonicalised to the short ones (`top-left` → `tl`). */
export const GRAVITY_ALIASES = {
  center: "c",
  top: "t",
  bottom: "b",
  left: "l",
  right: "r",
  "top-left": "tl",
  "top-right": "tr",
  "bottom-left": "bl",
  "bottom-right": "br",
} as const;
export type Gravity = (typeof GRAVITIES)[number] | keyof typeof GRAVITY_ALIASES;

/** `ps_`: a strategy, or a point of the source in pixels (written `ps_{x},{y}`). */
export const POSITION_STRATEGIES = ["center", "entropy", "attention"] as const;
export interface SourcePoint {
  x: number;
  y: number;
}
export type PositionStrategy = (typeof POSITION_STRATEGIES)[number] | SourcePoint;

export const IMAGE_FORMATS = ["jpg", "jpeg", "png", "webp", "avif", "gif", "tiff", "auto"] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const QUALITY_PRESETS = ["auto", "auto:best", "auto:good", "auto:eco", "auto:low"] as const;
export type QualityPreset = (typeof QUALITY_PRESETS)[number];

/** `r_auto` orients from EXIF; portrait/landscape turn by 0, 90 or 270 so the output is tall/wide. */
export const ROTATION_MODES = ["auto", "portrait", "landscape"] as const;
export type RotationMode = (typeof ROTATION_MODES)[number];

export const FLIPS = ["h", "v", "hv"] as const;
export type Flip = (typeof FLIPS)[number];

/** `fl_` flags of a step. `fl_layer_apply` is not one: it closes a layer block. */
export const STEP_FLAGS = ["upscale"] as const;
export type StepFlag = (typeof STEP_FLAGS)[number];

/** `W:H`; both terms positive, at most 9999.99, with at most two decimals. */
export interface AspectRatio {
  w: number;
  h: number;
}

/**
 * One step of a transformation: the directives written between two `/`. Every key is
 * optional; a key appears at most once per step (several `e_` directives are one `e` list).
 */
export interface TransformStep {
  /**
   * A named transform (`t_card`): a transformation the workspace defines under that name, 1 to
   * 64 of `a-z`, `0-9`, `_` and `-`. With other keys (`{ t: "card", q: 90 }`) it is two steps,
   * the recipe then the rest; the server replaces it by its definition before rendering, so the
   * grammar keeps the name as written.
   */
  t?: string;
  /**
   * Target width: integer 1..8192 px, a fraction of the source 0.01..0.99 (at most 2 decimals,
   * written with a point: `w_0.5`), or `auto` (from client hints / User-Agent, in width steps).
   */
  w?: number | "auto";
  /** Target height: integer 1..8192 px or a fraction of the source 0.01..0.99. */
  h?: number;
  /** Aspect ratio; needs w or h in the same step and derives the other (ignored with both). */
  ar?: AspectRatio;
  /** Crop mode; `fill` is the default when both `w` and `h` are given. */
  c?: CropMode;
  /** Gravity or strategy for `fill` and `crop`; long SDK names canonicalise to short ones. */
  p?: Gravity;
  /** Position strategy, or a source point `{ x, y }` (0..65535 px) to centre the crop on. */
  ps?: PositionStrategy;
  /** Detect this subject and frame the output on it (FOCUS_SUBJECTS). */
  fo?: FocusSubject;
  /** Zoom 1..5 about the `p` anchor before the crop, at most 2 decimals (1 does nothing). */
  z?: number;
  /** Device pixel ratio 0.1..10, at most 2 decimals: multiplies sizes and offsets (1 does nothing). */
  dpr?: number;
  /** Output format; `jpeg` is canonicalised to `jpg`. */
  f?: ImageFormat;
  /** Output quality, integer 1..100, or a preset (`auto`, `auto:best`, …). */
  q?: number | QualityPreset;
  /** Rotation in integer degrees, -36000..36000 (canonicalised into 0..359: `r_450` is `r_90`), or a mode. */
  r?: number | RotationMode;
  flip?: Flip;
  /** Background: a colour name (lowercase) or a 6-digit hex colour without `#`. */
  bg?: ColourName | (string & {});
  /** Corner radius, integer 0..8192 pixels, or `max` for a circle or ellipse. */
  br?: number | "max";
  /** Opacity of the base image, integer 0..100 (100 does nothing). */
  o?: number;
  /** `fl_upscale` (Trove extension): allow enlargement beyond the source's size. */
  fl?: StepFlag;
  /** One effect, or several (canonically sorted; see effectsOf). */
  e?: Effect | Effect[];
  /** Layer blocks, in written order (at most 8). */
  layers?: Layer[];
}

/** Steps apply left to right. */
export type Transformation = TransformStep[];
