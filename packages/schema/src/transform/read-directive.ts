import { readAspectRatio } from "./aspect-ratio.js";
import { readColour } from "./colour.js";
import { readEffect } from "./effect.js";
import { MAX_DIMENSION, MAX_ROTATION } from "./limits.js";
import { readNamedTransformName } from "./named-transform.js";
import { readInteger } from "./read-integer.js";
import { TransformParseError } from "./transform-parse-error.js";
import {
  CROP_MODES,
  FLIPS,
  GRAVITIES,
  IMAGE_FORMATS,
  type TransformKey,
  type TransformStep,
} from "./transform-step.js";
import { accept, refuse, type ValueResult } from "./value-result.js";

type ValueReaders = { [K in TransformKey]-?: (text: string) => ValueResult<NonNullable<TransformStep[K]>> };

const oneOf =
  <T extends string>(values: readonly T[], reason: string) =>
  (text: string): ValueResult<T> =>
    (values as readonly string[]).includes(text) ? accept(text as T) : refuse(reason);

const VALUE_READERS: ValueReaders = {
  t: readNamedTransformName,
  w: (text) =>
    readInteger(text, 1, MAX_DIMENSION, {
      kind: "width must be an integer",
      range: `width must be 1..${MAX_DIMENSION}`,
    }),
  h: (text) =>
    readInteger(text, 1, MAX_DIMENSION, {
      kind: "height must be an integer",
      range: `height must be 1..${MAX_DIMENSION}`,
    }),
  ar: readAspectRatio,
  c: oneOf(CROP_MODES, `crop mode must be one of ${CROP_MODES.join(", ")}`),
  p: oneOf(GRAVITIES, `gravity must be one of ${GRAVITIES.join(", ")}`),
  f: oneOf(IMAGE_FORMATS, `format must be one of ${IMAGE_FORMATS.join(", ")}`),
  q: (text) =>
    text === "auto"
      ? accept("auto" as const)
      : readInteger(text, 1, 100, {
          kind: "quality must be an integer or auto",
          range: "quality must be 1..100",
        }),
  r: (text) =>
    readInteger(text, -MAX_ROTATION, MAX_ROTATION, {
      kind: "rotation must be an integer number of degrees",
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
  e: readEffect,
};

// Object.hasOwn, not `in`: a key such as `constructor` or `toString` must be unknown.
export const isTransformKey = (key: string): key is TransformKey => Object.hasOwn(VALUE_READERS, key);

export type Directive = {
  [K in TransformKey]: { key: K; value: NonNullable<TransformStep[K]> };
}[TransformKey];

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
