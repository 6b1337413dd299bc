/**
 * The arithmetic of a step's geometry, apart from libvips: which window of the source a step
 * shows and at what size. resize-ops.ts turns the result into one extract-then-resize.
 *
 * Decisions (docs/TRANSFORMS.md, "Rendering"):
 * - No enlargement by default, in every mode (the hosted service documents it; E/resize.mdx):
 *   a box larger than the source is shrunk, keeping its aspect ratio, to the largest box of that
 *   ratio the source can fill. `fl_upscale` lifts this.
 * - `z_N` never changes the output's size, only how much of the source it shows: the window the
 *   step would show shrinks N× about the anchor (the `p` anchor's point of the window, or the
 *   `ps` point), then fills the same output. So with c_fill/c_crop it magnifies the crop, and
 *   with c_fit, c_limit or one side only (whose window is the whole image) it magnifies about
 *   the anchor and crops what falls outside. That magnification is what z asks for: the
 *   no-upscale rule does not apply to it (the output is no larger than without z).
 * - Fractions (`w_0.5`) are of the source after orientation, rounded half up, at least 1 px;
 *   `dpr` multiplies w and h after that (the pixel limits bound the result).
 */
import { GRAVITY_ALIASES, type Gravity, type SourcePoint } from "@trove/schema";
import type { Size } from "./frame.js";

/** A rectangle of the source, in its pixels. */
export interface Window extends Size {
  left: number;
  top: number;
}

/** Where the window goes: a gravity's side/corner, or centred on a point of the source. */
export type Anchor = { kind: "gravity"; gravity: ShortGravity } | { kind: "point"; point: SourcePoint };
export type ShortGravity = "c" | "t" | "b" | "l" | "r" | "tl" | "tr" | "bl" | "br";

const SHORT = new Set<string>(["c", "t", "b", "l", "r", "tl", "tr", "bl", "br"]);

/** A gravity as an anchor; strategies and `face` are not anchors (undefined). */
export function gravityAnchor(p: Gravity | undefined): ShortGravity | undefined {
  if (p === undefined) return "c";
  if (SHORT.has(p)) return p as ShortGravity;
  return Object.hasOwn(GRAVITY_ALIASES, p) ? GRAVITY_ALIASES[p as keyof typeof GRAVITY_ALIASES] : undefined;
}

/** `w`/`h` as pixels: a fraction (below 1) of the source's side, rounded half up, at least 1. */
export function sideInPixels(value: number | undefined, sourceSide: number, dpr: number): number | undefined {
  if (value === undefined) return undefined;
  const pixels = value < 1 ? Math.floor(value * sourceSide + 0.5) : value;
  return Math.max(1, Math.floor(pixels * dpr + 0.5));
}

/**
 * The box a fill (or scale) of `box` makes from `input` without enlargement: the box itself
 * when the source covers it, else the box shrunk, ratio kept, until the source does.
 */
export function shrinkBox(box: Size, input: Size, upscale: boolean): Size {
  const factor = upscale ? 1 : Math.min(1, input.width / box.width, input.height / box.height);
  if (factor === 1) return box;
  return {
    width: Math.max(1, Math.floor(box.width * factor + 0.5)),
    height: Math.max(1, Math.floor(box.height * factor + 0.5)),
  };
}

/** A proportional scale to `scale`, never above 1 without `upscale`; each side at least 1 px. */
export function scaledSize(input: Size, scale: number, upscale: boolean): Size {
  const s = upscale ? scale : Math.min(1, scale);
  if (s === 1) return { width: input.width, height: input.height };
  return {
    width: Math.max(1, Math.round(input.width * s)),
    height: Math.max(1, Math.round(input.height * s)),
  };
}

/** The largest window of `ratio`'s aspect inside `input` (what a cover resize keeps). */
export function coverWindowSize(input: Size, ratio: Size): Size {
  const scale = Math.max(ratio.width / input.width, ratio.height / input.height);
  return {
    width: Math.min(input.width, Math.max(1, Math.round(ratio.width / scale))),
    height: Math.min(input.height, Math.max(1, Math.round(ratio.height / scale))),
  };
}

/** A window of `size` inside `input`, placed by `anchor` (a point is centred, then clamped). */
export function placeWindow(size: Size, input: Size, anchor: Anchor): Window {
  if (anchor.kind === "point") {
    return {
      ...size,
      left: clamp(Math.round(anchor.point.x - size.width / 2), 0, input.width - size.width),
      top: clamp(Math.round(anchor.point.y - size.height / 2), 0, input.height - size.height),
    };
  }
  const g = anchor.gravity;
  return {
    ...size,
    left: offset(input.width - size.width, g, ["l", "tl", "bl"], ["r", "tr", "br"]),
    top: offset(input.height - size.height, g, ["t", "tl", "tr"], ["b", "bl", "br"]),
  };
}

/**
 * `window` shrunk `zoom`× about the anchor: the anchor's point of the window (its top-left
 * corner for `tl`, the middle of its top edge for `t`, its centre for `c`) stays where it is;
 * a `ps` point is centred, then clamped into the window.
 */
export function zoomWindow(window: Window, zoom: number, anchor: Anchor): Window {
  if (zoom <= 1) return window;
  const size = {
    width: Math.max(1, Math.round(window.width / zoom)),
    height: Math.max(1, Math.round(window.height / zoom)),
  };
  const inner =
    anchor.kind === "point"
      ? placeWindow(size, window, {
          kind: "point",
          point: { x: anchor.point.x - window.left, y: anchor.point.y - window.top },
        })
      : placeWindow(size, window, anchor);
  return { ...size, left: window.left + inner.left, top: window.top + inner.top };
}

export function wholeWindow(input: Size): Window {
  return { left: 0, top: 0, width: input.width, height: input.height };
}

function offset(slack: number, gravity: ShortGravity, start: ShortGravity[], end: ShortGravity[]): number {
  if (start.includes(gravity)) return 0;
  if (end.includes(gravity)) return slack;
  return Math.floor(slack / 2);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}
