// `@trove/sdk/transform`: the typed transformation builder, apart from the upload entry so that an
// upload widget that never builds a transform does not ship the grammar.
// `upload({ transform: buildTransform({ w: 300, f: "webp" }) })` sends the canonical string.
export {
  type BlendMode,
  buildTransform,
  canonicalizeTransform,
  type Effect,
  type FocusSubject,
  type ImageLayerSource,
  type Layer,
  type LayerSource,
  type Placement,
  type PlacementAlias,
  parseTransform,
  type TextLayerSource,
  TransformParseError,
  type TransformStep,
} from "@trove/schema";
