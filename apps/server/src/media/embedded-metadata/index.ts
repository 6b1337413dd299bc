/**
 * Personal metadata (location, names, serial numbers, comments) removed from image files without
 * re-encoding them: see ./strip-embedded-metadata.ts, and one file per container.
 */
export { EmbeddedMetadataError, isEmbeddedMetadataError } from "./embedded-metadata-error.js";
export { carriesEmbeddedMetadata, stripEmbeddedMetadata } from "./strip-embedded-metadata.js";
