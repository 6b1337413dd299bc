import { safeParseTransform } from "../transform/parse-transform.js";
import { TRANSFORM_KEYS } from "../transform/transform-step.js";
import { parseVideoTransform } from "./parse-video-transform.js";
import { VIDEO_TRANSFORM_KEYS } from "./video-transform.js";

/** Keys only the video grammar has (`thumb`, `so`, `eo`, `d`, `cm`): a step with one is video. */
const VIDEO_ONLY_KEYS: ReadonlySet<string> = new Set(
  VIDEO_TRANSFORM_KEYS.filter((key) => !(TRANSFORM_KEYS as readonly string[]).includes(key)),
);

/**
 * Checks a transform string written for a delivery URL (the SDK's client.url, the CLI's `trove
 * url`): valid by the image grammar, or by the video one (`so_5,eo_15,w_400`, `thumb_ar`). A
 * string valid by neither throws the TransformParseError of the grammar it was meant for: the
 * video one when a directive has a video-only key, else the image one (`q_200` stays a quality
 * error, `so_5,eo_2` an offset error).
 */
export function checkDeliveryTransform(text: string): void {
  const image = safeParseTransform(text);
  if (image.success) return;
  const keys = text.split(",").map((directive) => directive.slice(0, directive.indexOf("_")));
  if (!keys.some((key) => VIDEO_ONLY_KEYS.has(key))) throw image.error;
  parseVideoTransform(text);
}
