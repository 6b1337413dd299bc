export { buildTransform } from "./build-transform.js";
export { canonicalizeTransform, canonicalTransform } from "./canonical-transform.js";
export { COLOUR_NAMES, type ColourName } from "./colour.js";
export { EFFECT_NAMES, type Effect, type EffectName, splitEffect } from "./effect.js";
export { isTransformStep } from "./is-transform-step.js";
export { MAX_DIMENSION, MAX_ROTATION, MAX_TRANSFORM_LENGTH, MAX_TRANSFORM_STEPS } from "./limits.js";
export {
  isNamedStep,
  isNamedTransformName,
  MAX_NAMED_TRANSFORM_LENGTH,
} from "./named-transform.js";
export { normalizeTransform } from "./normalize-transform.js";
export { parseTransform, type SafeParseTransformResult, safeParseTransform } from "./parse-transform.js";
export { TransformParseError } from "./transform-parse-error.js";
export {
  type AspectRatio,
  CROP_MODES,
  type CropMode,
  FLIPS,
  type Flip,
  GRAVITIES,
  type Gravity,
  IMAGE_FORMATS,
  type ImageFormat,
  TRANSFORM_KEYS,
  type Transformation,
  type TransformKey,
  type TransformStep,
} from "./transform-step.js";
export { transformStringSchema } from "./transform-string-schema.js";
