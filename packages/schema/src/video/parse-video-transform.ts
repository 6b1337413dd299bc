import { MAX_TRANSFORM_LENGTH } from "../transform/limits.js";
import { TransformParseError } from "../transform/transform-parse-error.js";
import { accepts } from "./accepts.js";
import { readVideoDirective } from "./read-video-directive.js";
import type { VideoTransform, VideoTransformKey } from "./video-transform.js";

/** The directive each key was written as, for messages about a combination. */
type Written = Partial<Record<VideoTransformKey, string>>;

/**
 * Parses one video step (`so_5,eo_15,w_400`, `thumb_ar`, `w_400,h_400,cm_pad_resize,bg_white`)
 * into its canonical model: sizes rounded up to even, the ratio in lowest terms, colours as hex,
 * no-ops dropped (so `so_0` or `cm_pad_resize` alone is the no-op `{}`; see dropNoOps). Throws
 * TransformParseError naming the directive.
 */
export function parseVideoTransform(text: string): VideoTransform {
  if (typeof text !== "string") throw new TransformParseError("video transform must be a string");
  if (text === "") throw new TransformParseError("video transform is empty");
  // Checked before anything proportional to the input is allocated.
  if (text.length > MAX_TRANSFORM_LENGTH) {
    throw new TransformParseError(`video transform is longer than ${MAX_TRANSFORM_LENGTH} characters`);
  }
  if (text.includes("/")) throw new TransformParseError("a video transform is one step, without /");
  const model: Record<string, unknown> = {};
  const written: Written = {};
  for (const raw of text.split(",")) {
    if (raw === "") throw new TransformParseError("video transform has an empty directive");
    const directive = readVideoDirective(raw);
    if (written[directive.key] !== undefined) {
      throw new TransformParseError(`${directive.key}_ is given twice`, raw);
    }
    written[directive.key] = raw;
    model[directive.key] = directive.value;
  }
  const transform = model as VideoTransform & { r?: 0 };
  checkCombination(transform, written);
  return dropNoOps(transform);
}

/** Directives that are valid alone but contradict each other. */
function checkCombination(t: VideoTransform, written: Written): void {
  const refuse = (key: VideoTransformKey, reason: string) => {
    throw new TransformParseError(reason, written[key]);
  };
  if (t.eo !== undefined && t.d !== undefined) refuse("d", "use eo_ or d_, not both");
  if (t.eo !== undefined && t.eo <= (t.so ?? 0)) {
    refuse("eo", `end offset must be after the start offset (${t.so ?? 0} s)`);
  }
  if (t.thumb) {
    if (t.eo !== undefined) refuse("eo", "thumb_ar takes one frame (at so_): eo_ does not apply");
    if (t.d !== undefined) refuse("d", "thumb_ar takes one frame (at so_): d_ does not apply");
    if (t.f !== undefined) refuse("f", "thumb_ar makes a WebP still: f_gif does not apply");
  }
  if (t.bg !== undefined && t.cm === "extract") {
    refuse("bg", "bg_ fills padding, and cm_extract crops instead of padding");
  }
}

/**
 * Directives that change nothing: `so_0`, `r_0`, `ar_` beside both sides, and `cm_`/`bg_` without
 * a box to fit (w_ and h_, or ar_). Dropping them gives every output one canonical spelling.
 */
function dropNoOps(t: VideoTransform & { r?: 0 }): VideoTransform {
  const { so, r, ar, cm, bg, ...rest } = t;
  const out: VideoTransform = rest;
  const bothSides = t.w !== undefined && t.h !== undefined;
  if (so !== undefined && so !== 0) out.so = so;
  if (ar !== undefined && !bothSides) out.ar = ar;
  if (bothSides || ar !== undefined) {
    if (cm !== undefined) out.cm = cm;
    if (bg !== undefined) out.bg = bg;
  }
  if (r !== undefined && r !== 0) out.r = r;
  return out;
}

/** parseVideoTransform without throwing. */
export function isVideoTransform(text: string): boolean {
  return accepts(parseVideoTransform, text);
}
