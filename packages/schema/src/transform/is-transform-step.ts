import { isVideoStep } from "../video/is-video-step.js";
import { safeParseTransform } from "./parse-transform.js";
import { isTransformKey } from "./read-directive.js";

/**
 * Whether a path segment reads as one valid transformation step (`w_300`, `r_0`,
 * `w_256,h_256,c_limit,f_webp`). Delivery URLs put transformation steps in front of a file's
 * path, so a folder or file named like one would make a URL mean two things. The server refuses
 * such names, and the delivery host reads such a segment as a transformation, never as a folder.
 * A video step (`so_5,eo_15,w_400`, `thumb_ar`, `st_240_360`: ../video/) is one too. `w_abc` or
 * `e_ticket.pdf` are not steps (their values do not parse), so they stay valid names.
 */
export function isTransformStep(segment: string): boolean {
  if (segment === "" || segment.includes("/")) return false;
  // Every upload's name comes through here, and almost none starts with a known `key_`: answer
  // those without the parser, which reports a failure by throwing (a stack trace per name).
  if (startsWithKnownKey(segment) && safeParseTransform(segment).success) return true;
  // Video steps (`so_5,eo_15`, `thumb_ar`, `cm_pad_resize`, `st_240_360`) have keys of their own.
  return isVideoStep(segment);
}

/** Whether the first directive (up to the first `,`) is `key_...` with a key of the grammar. */
function startsWithKnownKey(segment: string): boolean {
  const underscore = segment.indexOf("_");
  if (underscore <= 0) return false;
  const comma = segment.indexOf(",");
  if (comma !== -1 && comma < underscore) return false;
  const key = segment.slice(0, underscore);
  // A step may also start with a layer block (`l_text:…`, `l_image:…`).
  return isTransformKey(key) || key === "l";
}
