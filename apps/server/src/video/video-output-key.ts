import { createHash } from "node:crypto";
import { variantCachePrefix } from "../media/variant-cache-key.js";

/**
 * Bumped whenever rendering changes what a video transform produces, so outputs of an older
 * renderer are not served for it.
 */
export const VIDEO_RENDERER_VERSION = 1;

/**
 * The storage key of a video transform's output: under the file's variant prefix, so
 * deleteFileObjects (src/uploads/delete-file-objects.ts) removes it with the file, and a digest of
 * the canonical transform (canonicalVideoTransform), so equal transforms share one output and the
 * key is safe on any driver.
 */
export function videoOutputKey(storageKey: string, canonicalTransform: string): string {
  const digest = createHash("sha256")
    .update(`video/v${VIDEO_RENDERER_VERSION}\n${canonicalTransform}`)
    .digest("hex");
  return `${variantCachePrefix(storageKey)}video-${digest}`;
}

/**
 * Where a file of a streaming package is stored: under its row's key, so the variant prefix
 * holds it (deleteFileObjects removes it with the original) and eviction removes the whole
 * package by listing the key's own prefix. `name` passes isStreamPackageFile.
 */
export function streamPackageFileKey(packageKey: string, name: string): string {
  return `${packageKey}/${name}`;
}
