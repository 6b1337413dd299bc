import { canonicalAspectRatio } from "../transform/aspect-ratio.js";
import { hexOfColour, readColour } from "../transform/colour.js";
import { readDecimal } from "../transform/read-decimal.js";
import { isTransformKey } from "../transform/read-directive.js";
import { readInteger } from "../transform/read-integer.js";
import { LAYER_KEYS } from "../transform/read-layer-directive.js";
import { TransformParseError } from "../transform/transform-parse-error.js";
import { FLIPS } from "../transform/transform-step.js";
import { accept, oneOf, refuse, type ValueResult } from "../transform/value-result.js";
import {
  DEFAULT_BLUR_STRENGTH,
  MAX_VIDEO_ASPECT_TERM,
  MAX_VIDEO_DIMENSION,
  MAX_VIDEO_OFFSET_SECONDS,
  VIDEO_CROP_MODES,
  VIDEO_OFFSET_DECIMALS,
  type VideoBackground,
  type VideoTransform,
  type VideoTransformKey,
} from "./video-transform.js";

/** What a directive reads to; `so_0` and `r_0` are read, then dropped as no-ops by the parser. */
type VideoValue<K extends VideoTransformKey> = NonNullable<VideoTransform[K]> | (K extends "r" ? 0 : never);
type VideoReaders = { [K in VideoTransformKey]: (text: string) => ValueResult<VideoValue<K>> };

export type VideoDirective = {
  [K in VideoTransformKey]: { key: K; value: VideoValue<K>; raw: string };
}[VideoTransformKey];

/** `w_401` → 402: encoders want even sides (yuv420p halves both), so odd sizes round up. */
function readVideoSize(text: string, side: "width" | "height"): ValueResult<number> {
  const read = readInteger(text, 1, MAX_VIDEO_DIMENSION, {
    kind: `${side} must be an integer 1..${MAX_VIDEO_DIMENSION}`,
    range: `${side} must be 1..${MAX_VIDEO_DIMENSION} for video`,
  });
  return read.ok ? accept(read.value + (read.value % 2)) : read;
}

function readSeconds(text: string, what: string, min: number): ValueResult<number> {
  return readDecimal(text, min, MAX_VIDEO_OFFSET_SECONDS, VIDEO_OFFSET_DECIMALS, {
    kind: `${what} must be seconds, a non-negative number with at most ${VIDEO_OFFSET_DECIMALS} decimals`,
    range:
      min === 0
        ? `${what} must be 0..${MAX_VIDEO_OFFSET_SECONDS} seconds`
        : `${what} must be more than 0 and at most ${MAX_VIDEO_OFFSET_SECONDS} seconds`,
  });
}

/** `ar_16:9`: integer terms (not the image grammar's decimals), in lowest terms (`32:18` → 16:9). */
function readVideoAspectRatio(text: string): ValueResult<{ w: number; h: number }> {
  const terms = text.split(":");
  const reasons = {
    kind: "aspect ratio must be W:H with two positive integers",
    range: `aspect ratio terms must be 1..${MAX_VIDEO_ASPECT_TERM} for video`,
  };
  if (terms.length !== 2) return refuse(reasons.kind);
  const [w, h] = terms.map((term) => readInteger(term, 1, MAX_VIDEO_ASPECT_TERM, reasons));
  if (!w?.ok) return w ?? refuse(reasons.kind);
  if (!h?.ok) return h ?? refuse(reasons.kind);
  return accept(canonicalAspectRatio({ w: w.value, h: h.value }));
}

/** `bg_{name|hex6}` as the image grammar reads colours (not `transparent`), or `bg_blurred[_n]`. */
function readVideoBackground(text: string): ValueResult<VideoBackground> {
  if (text === "blurred") return accept({ kind: "blurred", strength: DEFAULT_BLUR_STRENGTH });
  if (text.startsWith("blurred_")) {
    const strength = readInteger(text.slice("blurred_".length), 1, 100, {
      kind: "blur strength must be an integer",
      range: "blur strength must be 1..100",
    });
    return strength.ok ? accept({ kind: "blurred", strength: strength.value }) : strength;
  }
  const colour = readColour(text);
  if (!colour.ok) return refuse(`${colour.reason}, or blurred, or blurred_{1..100}`);
  const hex = hexOfColour(colour.value);
  return hex === undefined
    ? refuse("video has no transparency: give a colour or blurred")
    : accept({ kind: "colour", hex });
}

const ROTATIONS = ["0", "90", "180", "270"] as const;

const READERS: VideoReaders = {
  thumb: (text) => (text === "ar" ? accept(true as const) : refuse("the thumbnail directive is thumb_ar")),
  so: (text) => readSeconds(text, "start offset", 0),
  eo: (text) => readSeconds(text, "end offset", 0),
  d: (text) => readSeconds(text, "duration", 10 ** -VIDEO_OFFSET_DECIMALS),
  w: (text) => readVideoSize(text, "width"),
  h: (text) => readVideoSize(text, "height"),
  ar: readVideoAspectRatio,
  cm: oneOf(VIDEO_CROP_MODES, `crop mode must be ${VIDEO_CROP_MODES.join(" or ")}`),
  bg: readVideoBackground,
  flip: oneOf(FLIPS, "flip must be h, v or hv"),
  r: (text) => {
    const read = oneOf(ROTATIONS, "rotation must be 0, 90, 180 or 270 (clockwise) for video")(text);
    return read.ok ? accept(Number(read.value) as 0 | 90 | 180 | 270) : read;
  },
  f: (text) =>
    text === "gif"
      ? accept("gif" as const)
      : refuse("format must be gif for video (the output is MP4 without f_)"),
};

export const isVideoTransformKey = (key: string): key is VideoTransformKey => Object.hasOwn(READERS, key);

/** Reads one `key_value` directive of a video transform; the value is everything after the first `_`. */
export function readVideoDirective(raw: string): VideoDirective {
  const underscore = raw.indexOf("_");
  if (underscore <= 0) throw new TransformParseError("directive must be key_value", raw);
  const key = raw.slice(0, underscore);
  if (!isVideoTransformKey(key)) throw new TransformParseError(refusalOfKey(key), raw);
  const read = READERS[key](raw.slice(underscore + 1));
  if (!read.ok) throw new TransformParseError(read.reason, raw);
  return { key, value: read.value, raw } as VideoDirective;
}

function refusalOfKey(key: string): string {
  if (key === "st") return "st_ (a streaming ladder) is a step of its own, not part of a video transform";
  if (isTransformKey(key) || key === "l" || (LAYER_KEYS as readonly string[]).includes(key))
    return `${key}_ does not apply to video`;
  return `unknown key ${key}`;
}
