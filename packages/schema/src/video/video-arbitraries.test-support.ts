// fast-check arbitraries of the video transform model, for video-round-trip.test.ts. Every model
// is valid (but not canonical: odd sizes, unreduced ratios); written forms use every spelling the
// parser accepts, in any order.
import fc from "fast-check";
import { canonicalAspectRatio } from "../transform/aspect-ratio.js";
import { canonicalColour } from "../transform/colour.js";
import { FLIPS } from "../transform/transform-step.js";
import {
  MAX_VIDEO_ASPECT_TERM,
  MAX_VIDEO_DIMENSION,
  MAX_VIDEO_OFFSET_SECONDS,
  VIDEO_CROP_MODES,
  VIDEO_ROTATIONS,
  type VideoBackground,
  type VideoTransform,
} from "./video-transform.js";

const int = (min: number, max: number) => fc.integer({ min, max });
const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const MAX_MS = MAX_VIDEO_OFFSET_SECONDS * 1000;
const hex = fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 6, maxLength: 6 });

const background: fc.Arbitrary<VideoBackground> = fc.oneof(
  hex.map((value): VideoBackground => ({ kind: "colour", hex: value })),
  int(1, 100).map((strength): VideoBackground => ({ kind: "blurred", strength })),
);

/** Offsets in whole milliseconds, so that eo = so + a delta stays exact. */
const trim = fc
  .record({
    so: int(0, MAX_MS - 1),
    end: optional(fc.record({ kind: fc.constantFrom("eo", "d"), ms: int(1, MAX_MS) })),
  })
  .map(({ so, end }) => {
    const out: Pick<VideoTransform, "so" | "eo" | "d"> = { so: so / 1000 };
    if (end?.kind === "eo") out.eo = Math.min(so + end.ms, MAX_MS) / 1000;
    if (end?.kind === "d") out.d = end.ms / 1000;
    if (out.eo === out.so) delete out.eo;
    return out;
  });

export const videoTransform: fc.Arbitrary<VideoTransform> = fc
  .record({
    thumb: optional(fc.constant(true as const)),
    trim: optional(trim),
    w: optional(int(1, MAX_VIDEO_DIMENSION)),
    h: optional(int(1, MAX_VIDEO_DIMENSION)),
    ar: optional(fc.record({ w: int(1, MAX_VIDEO_ASPECT_TERM), h: int(1, MAX_VIDEO_ASPECT_TERM) })),
    cm: optional(fc.constantFrom(...VIDEO_CROP_MODES)),
    bg: optional(background),
    flip: optional(fc.constantFrom(...FLIPS)),
    r: optional(fc.constantFrom(...VIDEO_ROTATIONS)),
    f: optional(fc.constant("gif" as const)),
  })
  .map(({ trim: offsets, ...rest }) => {
    const t: VideoTransform = { ...rest, ...offsets };
    const box = (t.w !== undefined && t.h !== undefined) || t.ar !== undefined;
    if (!box) delete t.cm;
    if (!box || t.cm === "extract") delete t.bg;
    if (t.thumb) {
      delete t.eo;
      delete t.d;
      delete t.f;
    }
    for (const key of Object.keys(t) as (keyof VideoTransform)[]) if (t[key] === undefined) delete t[key];
    return t;
  });

/** What the parser reads a model as: sizes even, ratio reduced (gone beside both sides), no-ops dropped. */
export function normalizeVideoTransform(t: VideoTransform): VideoTransform {
  const out: VideoTransform = { ...t };
  if (out.w !== undefined) out.w += out.w % 2;
  if (out.h !== undefined) out.h += out.h % 2;
  if (out.ar !== undefined) out.ar = canonicalAspectRatio(out.ar);
  if (out.ar !== undefined && out.w !== undefined && out.h !== undefined) delete out.ar;
  if (out.so === 0) delete out.so;
  return out;
}

/** Seconds as written: maybe with a trailing zero after the point (`1.50`, `2.0`). */
function seconds(value: number): fc.Arbitrary<string> {
  const text = String(value);
  const decimals = text.split(".")[1]?.length ?? 0;
  if (decimals === 0) return fc.constantFrom(text, `${text}.0`, `${text}.000`);
  return decimals < 3 ? fc.constantFrom(text, `${text}0`) : fc.constant(text);
}

function writeBackground(bg: VideoBackground): fc.Arbitrary<string> {
  if (bg.kind === "blurred") {
    return bg.strength === 20
      ? fc.constantFrom("blurred", "blurred_20")
      : fc.constant(`blurred_${bg.strength}`);
  }
  return fc.constantFrom(bg.hex, bg.hex.toUpperCase(), canonicalColour(bg.hex));
}

/** A model and one of its spellings: directives in any order, ratios scaled, no-ops written. */
export const writtenVideoTransform: fc.Arbitrary<{ model: VideoTransform; text: string }> = videoTransform
  .filter((t) => Object.keys(t).length > 0)
  .chain((model) => {
    const directives: fc.Arbitrary<string>[] = [];
    if (model.thumb) directives.push(fc.constant("thumb_ar"));
    for (const key of ["so", "eo", "d"] as const) {
      const value = model[key];
      if (value !== undefined) directives.push(seconds(value).map((text) => `${key}_${text}`));
    }
    if (model.w !== undefined) directives.push(fc.constant(`w_${model.w}`));
    if (model.h !== undefined) directives.push(fc.constant(`h_${model.h}`));
    const { ar } = model;
    if (ar !== undefined) {
      const scale = Math.floor(MAX_VIDEO_ASPECT_TERM / Math.max(ar.w, ar.h));
      directives.push(int(1, scale).map((k) => `ar_${ar.w * k}:${ar.h * k}`));
    }
    if (model.cm !== undefined) directives.push(fc.constant(`cm_${model.cm}`));
    if (model.bg !== undefined) directives.push(writeBackground(model.bg).map((text) => `bg_${text}`));
    if (model.flip !== undefined) directives.push(fc.constant(`flip_${model.flip}`));
    // No rotation may be written as nothing or as the no-op r_0.
    directives.push(model.r === undefined ? fc.constantFrom("", "r_0") : fc.constant(`r_${model.r}`));
    if (model.f !== undefined) directives.push(fc.constant("f_gif"));
    return fc
      .tuple(...directives)
      .map((parts) => parts.filter((part) => part !== ""))
      .chain((parts) => fc.shuffledSubarray(parts, { minLength: parts.length }))
      .map((parts) => ({ model, text: parts.join(",") }));
  });
