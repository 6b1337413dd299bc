/**
 * The output frame of a video transform, from the source's displayed size (the issue #33
 * contract, docs/TRANSFORMS.md "Video"):
 * - every side even (H.264 in yuv420p needs it): one computed from a ratio is rounded, then up to
 *   even, never under 2;
 * - `ar_` with `w_` or `h_` gives the other side; `ar_` alone applies to the source width;
 * - one side: the ratio of the source, never larger than the source (it is capped, not upscaled);
 * - both sides (given, or made by `ar_`): exactly w×h, fitted and padded (`cm_pad_resize`, the
 *   default) or filled and cropped (`cm_extract`), which may upscale;
 * - neither: the source size, evened, and for a GIF at most GIF_MAX_WIDTH wide.
 * Rotation and flips turn the sized frame afterwards (canonical order: `flip_`, `r_` after the
 * sizes): `r_90,w_400` on a landscape source is 400 wide before it turns.
 */
import type { VideoTransform } from "@trove/schema";

/** Default largest GIF width: a GIF's bytes grow with its area and it has no inter-frame codec. */
export const GIF_MAX_WIDTH = 480;

export interface VideoFrameSize {
  width: number;
  height: number;
  /** How the source fills the frame: scaled to it (same ratio), fitted and padded, or cropped. */
  fit: "scale" | "pad" | "crop";
}

export function videoFrameSize(t: VideoTransform, source: { width: number; height: number }): VideoFrameSize {
  const ratio = source.width / source.height;
  let { w, h } = t;
  if (t.ar && w === undefined && h === undefined) w = source.width;
  if (t.ar && w !== undefined && h === undefined) h = even((w * t.ar.h) / t.ar.w);
  else if (t.ar && h !== undefined && w === undefined) w = even((h * t.ar.w) / t.ar.h);
  if (w !== undefined && h !== undefined) {
    return { width: even(w), height: even(h), fit: t.cm === "extract" ? "crop" : "pad" };
  }
  if (w !== undefined) {
    const width = Math.min(even(w), even(source.width));
    return { width, height: even(width / ratio), fit: "scale" };
  }
  if (h !== undefined) {
    const height = Math.min(even(h), even(source.height));
    return { width: even(height * ratio), height, fit: "scale" };
  }
  const width = even(t.f === "gif" ? Math.min(source.width, GIF_MAX_WIDTH) : source.width);
  return { width, height: even(width / ratio), fit: "scale" };
}

/** Rounded to an integer, then up to even (`401` → 402), at least 2. */
export function even(value: number): number {
  const rounded = Math.round(value);
  return Math.max(2, rounded % 2 === 0 ? rounded : rounded + 1);
}
