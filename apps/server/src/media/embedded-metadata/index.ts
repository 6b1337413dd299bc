/**
 * Personal metadata (location, names, serial numbers, comments) removed from image files without
 * re-encoding them: see ./strip-embedded-metadata.ts, and one file per container. MP4/MOV videos:
 * ./strip-isobmff-video.ts (random access to a stored object, used by src/uploads/).
 */
export { EmbeddedMetadataError, isEmbeddedMetadataError } from "./embedded-metadata-error.js";
export { carriesEmbeddedMetadata, stripEmbeddedMetadata } from "./strip-embedded-metadata.js";
