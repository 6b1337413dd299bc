import type { BlendMode } from "./blend-mode.js";
import type { Effect } from "./effect.js";
import type { Placement, PlacementAlias } from "./placement.js";

/** Fonts a text layer may name; the renderer maps each to a bundled metric-compatible font. */
export const TEXT_FONTS = ["arial", "helvetica", "verdana"] as const;
export type TextFont = (typeof TEXT_FONTS)[number];

export const TEXT_STYLES = ["bold", "italic", "bold_italic"] as const;
export type TextStyle = (typeof TEXT_STYLES)[number];

export const TEXT_ALIGNS = ["left", "center", "right"] as const;
export type TextAlign = (typeof TEXT_ALIGNS)[number];

export const LAYER_TYPES = ["overlay", "underlay"] as const;
export type LayerType = (typeof LAYER_TYPES)[number];

/** `l_text:{font}_{size}[_{style}][_{align}]:{text}`. */
export interface TextLayerSource {
  kind: "text";
  font: TextFont;
  /** Font size in pixels, integer 1..512 (before dpr). */
  size: number;
  style?: TextStyle;
  align?: TextAlign;
  /** The text, decoded (the URL carries it percent-encoded); 1..200 characters. */
  text: string;
}

/** `l_image:{path}`: a file of the same workspace, path decoded (`/` is written `%2F` in the URL). */
export interface ImageLayerSource {
  kind: "image";
  path: string;
}

export type LayerSource = TextLayerSource | ImageLayerSource;

/**
 * One layer block: `l_text:…` or `l_image:…`, its own directives, then `fl_layer_apply`.
 * Sizes and offsets are pixels of the output (multiplied by the step's dpr).
 */
export interface Layer {
  source: LayerSource;
  /** `l_type:`; overlay (the default) draws above the base, underlay beneath it. */
  type?: LayerType;
  /** Layer width and height, integer 1..8192; one side alone keeps the layer's ratio. */
  lw?: number;
  lh?: number;
  /** From the base's left/top edge to the layer's top-left corner, integer -8192..8192. */
  lx?: number;
  ly?: number;
  /** Offset from the `tp` anchor: positive x = right, positive y = down, -8192..8192. */
  x?: number;
  y?: number;
  /** Anchor on the base (default center); short names are read and canonicalised to long ones. */
  tp?: Placement | PlacementAlias;
  /** Which point of the layer sits on the anchor (default: the same as tp). */
  ip?: Placement | PlacementAlias;
  /** Text colour: 6-digit hex without `#` (`co_rgb:FFD700` is read as `co_ffd700`). */
  co?: string;
  /** Layer opacity 0..100 (100, the default, is dropped). */
  o?: number;
  bm?: BlendMode;
  /** Effects on the layer itself, like a step's `e`. */
  e?: Effect | Effect[];
}
