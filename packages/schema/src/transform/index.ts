export { BLEND_MODES, type BlendMode } from "./blend-mode.js";
export { buildTransform } from "./build-transform.js";
export { canonicalizeTransform, canonicalTransform } from "./canonical-transform.js";
export { COLOUR_NAMES, type ColourName } from "./colour.js";
export {
  EFFECT_NAMES,
  type Effect,
  type EffectName,
  type EffectParts,
  effectsOf,
  IMPROVE_MODES,
  type ImproveMode,
  splitEffect,
} from "./effect.js";
export { FOCUS_SUBJECTS, type FocusSubject } from "./focus-subject.js";
export { isTransformStep } from "./is-transform-step.js";
export {
  type ImageLayerSource,
  LAYER_TYPES,
  type Layer,
  type LayerSource,
  type LayerType,
  TEXT_ALIGNS,
  TEXT_FONTS,
  TEXT_STYLES,
  type TextAlign,
  type TextFont,
  type TextLayerSource,
  type TextStyle,
} from "./layer.js";
export {
  MAX_DIMENSION,
  MAX_FONT_SIZE,
  MAX_LAYER_PATH_LENGTH,
  MAX_LAYERS,
  MAX_ROTATION,
  MAX_SOURCE_COORDINATE,
  MAX_TEXT_LENGTH,
  MAX_TRANSFORM_LENGTH,
  MAX_TRANSFORM_STEPS,
} from "./limits.js";
export {
  isNamedStep,
  isNamedTransformName,
  MAX_NAMED_TRANSFORM_LENGTH,
} from "./named-transform.js";
export { normalizeTransform } from "./normalize-transform.js";
export { LAYER_APPLY } from "./parse-step.js";
export { parseTransform, type SafeParseTransformResult, safeParseTransform } from "./parse-transform.js";
export { PLACEMENT_ALIASES, PLACEMENTS, type Placement, type PlacementAlias } from "./placement.js";
export {
  LAYER_KEYS,
  LAYER_ONLY_URL_KEYS,
  type LayerKey,
} from "./read-layer-directive.js";
export { TransformParseError } from "./transform-parse-error.js";
export {
  type AspectRatio,
  CROP_MODES,
  type CropMode,
  FLIPS,
  type Flip,
  GRAVITIES,
  GRAVITY_ALIASES,
  type Gravity,
  IMAGE_FORMATS,
  type ImageFormat,
  POSITION_STRATEGIES,
  type PositionStrategy,
  QUALITY_PRESETS,
  type QualityPreset,
  ROTATION_MODES,
  type RotationMode,
  type SourcePoint,
  STEP_FLAGS,
  type StepFlag,
  TRANSFORM_KEYS,
  type Transformation,
  type TransformKey,
  type TransformStep,
} from "./transform-step.js";
export { transformStringSchema } from "./transform-string-schema.js";
