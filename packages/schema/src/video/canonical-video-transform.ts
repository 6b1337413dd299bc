import { canonicalColour } from "../transform/colour.js";
import { parseVideoTransform } from "./parse-video-transform.js";
import {
  DEFAULT_BLUR_STRENGTH,
  VIDEO_TRANSFORM_KEYS,
  type VideoBackground,
  type VideoTransform,
} from "./video-transform.js";

/**
 * The one spelling of a video transform, keys in canonical order
 * (`thumb_ar,so_,eo_,d_,w_,h_,ar_,cm_,bg_,flip_,r_,f_`), or "" for a no-op. The model is written,
 * checked by the parser (so whatever this writes, the parser accepts: an invalid model throws its
 * TransformParseError), and written again from the parsed, canonical model (`w: 401` → `w_402`).
 */
export function canonicalVideoTransform(t: VideoTransform): string {
  const written = writeVideoTransform(t);
  return written === "" ? "" : writeVideoTransform(parseVideoTransform(written));
}

function writeVideoTransform(t: VideoTransform): string {
  const directives: string[] = [];
  for (const key of VIDEO_TRANSFORM_KEYS) {
    const value = t[key];
    if (value === undefined) continue;
    if (key === "thumb") directives.push(value === true ? "thumb_ar" : `thumb_${String(value)}`);
    else if (key === "ar") directives.push(`ar_${t.ar?.w}:${t.ar?.h}`);
    else if (key === "bg") directives.push(`bg_${writeBackground(value as VideoBackground)}`);
    else directives.push(`${key}_${String(value)}`);
  }
  return directives.join(",");
}

/** A named colour by its name (`ff0000` → red, as the image grammar writes it); default blur bare. */
function writeBackground(bg: VideoBackground): string {
  if (bg.kind === "colour") return canonicalColour(bg.hex);
  return bg.strength === DEFAULT_BLUR_STRENGTH ? "blurred" : `blurred_${bg.strength}`;
}
