import { readAspectRatio } from "./aspect-ratio.js";
import { readColour } from "./colour.js";
import { type Effect, readEffect } from "./effect.js";
import { FOCUS_SUBJECTS } from "./focus-subject.js";
import { MAX_DIMENSION, MAX_ROTATION } from "./limits.js";
import { readNamedTransformName } from "./named-transform.js";
import { readPositionStrategy } from "./position-strategy.js";
import { readDecimal } from "./read-decimal.js";
import { readInteger } from "./read-integer.js";
import { readSize } from "./read-size.js";
import { TransformParseError } from "./transform-parse-error.js";
import {
  CROP_MODES,
  FLIPS,
  GRAVITIES,
  GRAVITY_ALIASES,
  type Gravity,
  IMAGE_FORMATS,
  QUALITY_PRESETS,
  type QualityPreset,
  ROTATION_MODES,
  type RotationMode,
  STEP_FLAGS,
  type TransformKey,
  type TransformStep,
} from "./transform-step.js";
import { accept, oneOf, type ValueResult } from "./value-result.js";

type ValueReaders = {
  [K in TransformKey]-?: (
    text: string,
  ) => ValueResult<K extends "e" ? Effect : NonNullable<TransformStep[K]>>;
};

const GRAVITY_NAMES = [...GRAVITIES, ...Object.keys(GRAVITY_ALIASES)] as Gravity[];

const VALUE_READERS: ValueReaders = {
  t: readNamedTransformName,
  w: (text) => (text === "auto" ? accept("auto" as const) : readSize(text, "width")),
  h: (text) => readSize(text, "height"),
  ar: readAspectRatio,
  c: oneOf(CROP_MODES, `crop mode must be one of ${CROP_MODES.join(", ")}`),
  p: oneOf(GRAVITY_NAMES, `gravity must be one of ${GRAVITY_NAMES.join(", ")}`),
  ps: readPositionStrategy,
  fo: oneOf(FOCUS_SUBJECTS, `focus must be one of ${FOCUS_SUBJECTS.join(", ")}`),
  z: (text) =>
    readDecimal(text, 1, 5, 2, {
      kind: "zoom must be a number with at most 2 decimals",
      range: "zoom must be 1..5",
    }),
  dpr: (text) =>
    readDecimal(text, 0.1, 10, 2, {
      kind: "dpr must be a number with at most 2 decimals",
      range: "dpr must be 0.1..10",
    }),
  f: oneOf(IMAGE_FORMATS, `format must be one of ${IMAGE_FORMATS.join(", ")}`),
  q: (text) =>
    (QUALITY_PRESETS as readonly string[]).includes(text)
      ? accept(text as QualityPreset)
      : readInteger(text, 1, 100, {
          kind: `quality must be an integer or one of ${QUALITY_PRESETS.join(", ")}`,
          range: "quality must be 1..100",
        }),
  r: (text) =>
    (ROTATION_MODES as readonly string[]).includes(text)
      ? accept(text as RotationMode)
      : readInteger(text, -MAX_ROTATION, MAX_ROTATION, {
          kind: `rotation must be an integer number of degrees or one of ${ROTATION_MODES.join(", ")}`,
          range: `rotation must be -${MAX_ROTATION}..${MAX_ROTATION} degrees`,
        }),
  flip: oneOf(FLIPS, "flip must be h, v or hv"),
  bg: readColour,
  br: (text) =>
    text === "max"
      ? accept("max" as const)
      : readInteger(text, 0, MAX_DIMENSION, {
          kind: "corner radius must be an integer or max",
          range: `corner radius must be 0..${MAX_DIMENSION}`,
        }),
  o: readOpacity,
  fl: oneOf(STEP_FLAGS, `flag must be one of ${STEP_FLAGS.join(", ")} (fl_layer_apply closes a layer)`),
  e: readEffect,
};

// Object.hasOwn, not `in`: a key such as `constructor` or `toString` must be unknown.
export const isTransformKey = (key: string): key is TransformKey => Object.hasOwn(VALUE_READERS, key);

export type Directive = {
  [K in TransformKey]: { key: K; value: K extends "e" ? Effect : NonNullable<TransformStep[K]> };
}[TransformKey];

/** `o_`: opacity 0..100, of the base image or of a layer. */
export function readOpacity(text: string): ValueResult<number> {
  return readInteger(text, 0, 100, { kind: "opacity must be an integer", range: "opacity must be 0..100" });
}

/** Reads one `key_value` directive; the value is everything after the first `_`. */
export function readDirective(raw: string): Directive {
  const underscore = raw.indexOf("_");
  if (underscore <= 0) throw new TransformParseError("directive must be key_value", raw);
  const key = raw.slice(0, underscore);
  if (!isTransformKey(key)) throw new TransformParseError(`unknown key ${key}`, raw);
  const read = VALUE_READERS[key](raw.slice(underscore + 1));
  if (!read.ok) throw new TransformParseError(read.reason, raw);
  return { key, value: read.value } as Directive;
}
