// `@trove/sdk/transform`: the typed transformation builder, apart from the upload entry so that an
// upload widget that never builds a transform does not ship the grammar.
// `upload({ transform: buildTransform({ w: 300, f: "webp" }) })` sends the canonical string.
export {
  type BlendMode,
  buildTransform,
  canonicalizeTransform,
  canonicalVideoTransform,
  type Effect,
  type FocusSubject,
  type ImageLayerSource,
  type Layer,
  type LayerSource,
  type Placement,
  type PlacementAlias,
  parseStreamingLadder,
  parseTransform,
  parseVideoTransform,
  type TextLayerSource,
  TransformParseError,
  type TransformStep,
  type VideoBackground,
  type VideoTransform,
} from "@trove/schema";
// Video (issue #33): `client.url(file, buildVideoTransform({ startOffset: 5, width: 400 }))`.
export { buildVideoTransform, type VideoTransformOptions } from "./video-transform.js";
