import { canonicalVideoTransform, parseVideoTransform } from "@trove/schema";

/**
 * The video parameters of issue #33 by name (docs/TRANSFORMS.md, "Video"). Sizes are rounded up
 * to even, offsets are seconds with at most 3 decimals; `endOffset` and `duration` exclude each
 * other.
 */
export interface VideoTransformOptions {
  /** `thumb_ar`: a WebP still of the frame at `startOffset` (default 0) instead of a video. */
  thumbnail?: boolean;
  /** `w_`: 1..4320 px. */
  width?: number;
  /** `h_`: 1..4320 px. */
  height?: number;
  /** `ar_`: `"16:9"` or `{ w: 16, h: 9 }`, integer terms up to 100. */
  aspectRatio?: `${number}:${number}` | { w: number; h: number };
  /** `cm_`: fit and pad (the default with both sides), or fill and crop the centre. */
  cropMode?: "pad_resize" | "extract";
  /** `bg_`: a colour name or 6-digit hex for the padding, or `"blurred"` / `{ blurred: 1..100 }`. */
  background?: string | { blurred: number };
  /** `so_`: start offset, seconds. */
  startOffset?: number;
  /** `eo_`: end offset, seconds, after startOffset. */
  endOffset?: number;
  /** `d_`: duration, seconds, from startOffset. */
  duration?: number;
  /** `f_gif`: an animated GIF (no audio) instead of MP4. */
  format?: "gif";
  flip?: "h" | "v" | "hv";
  /** Clockwise. */
  rotate?: 0 | 90 | 180 | 270;
}

/**
 * The canonical video transform string (`so_5,eo_15,w_400`) for `client.url(file, ...)`, checked
 * by @trove/schema's video grammar: an invalid combination throws its TransformParseError, whose
 * message names the directive (`d_2: use eo_ or d_, not both`).
 */
export function buildVideoTransform(options: VideoTransformOptions): string {
  const directives: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value !== undefined) directives.push(`${key}_${String(value)}`);
  };
  if (options.thumbnail) directives.push("thumb_ar");
  add("so", options.startOffset);
  add("eo", options.endOffset);
  add("d", options.duration);
  add("w", options.width);
  add("h", options.height);
  const ratio = options.aspectRatio;
  add("ar", typeof ratio === "object" ? `${ratio.w}:${ratio.h}` : ratio);
  add("cm", options.cropMode);
  const background = options.background;
  add("bg", typeof background === "object" ? `blurred_${background.blurred}` : background);
  add("flip", options.flip);
  add("r", options.rotate);
  add("f", options.format);
  // The grammar reads colour names and ratios; its canonical writer gives the one spelling.
  return directives.length === 0 ? "" : canonicalVideoTransform(parseVideoTransform(directives.join(",")));
}
