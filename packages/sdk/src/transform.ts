// `@trove/sdk/transform`: the typed transformation builder, apart from the upload entry so that an
// upload widget that never builds a transform does not ship the grammar (about 5 kB minified).
// `upload({ transform: buildTransform({ w: 300, f: "webp" }) })` sends the canonical string.
export {
  buildTransform,
  parseTransform,
  TransformParseError,
  type TransformStep,
} from "@trove/schema";
