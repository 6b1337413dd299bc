import { isVideoTransform } from "./parse-video-transform.js";
import { isVideoTransformKey } from "./read-video-directive.js";
import { isStreamingLadder } from "./streaming-ladder.js";

/**
 * Whether a path segment reads as a video step: a video transform (`so_5,eo_15,w_400`,
 * `thumb_ar`, `cm_pad_resize`) or a streaming ladder (`st_240_360`). Names whose first directive
 * has no video key are answered without the parser (it reports a failure by throwing).
 */
export function isVideoStep(segment: string): boolean {
  const underscore = segment.indexOf("_");
  if (underscore <= 0) return false;
  const key = segment.slice(0, underscore);
  if (key === "st") return isStreamingLadder(segment);
  const comma = segment.indexOf(",");
  if (comma !== -1 && comma < underscore) return false;
  return isVideoTransformKey(key) && isVideoTransform(segment);
}
