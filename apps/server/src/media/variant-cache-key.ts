import { createHash } from "node:crypto";
import type { AutoFormatChoice } from "./negotiate-format.js";

/**
 * Bumped whenever rendering changes what a transform produces, so variants cached by an older
 * renderer are not served for it. 2: nothing is enlarged without `fl_upscale` (issue #32), so a
 * `w_1920` cached from a 1,600 px image by version 1 is not the image that URL means now.
 */
export const VARIANT_RENDERER_VERSION = 2;

// Values cannot contain "," or "/", so this matches the f_auto directive and nothing else.
const F_AUTO = /(?:^|[,/])f_auto(?:[,/]|$)/;

/**
 * The cache key of a rendered variant: `variants/v2/<file>/<variant>`, both parts hex digests,
 * so keys are fixed-length and safe on any storage driver whatever the storage key holds.
 * `canonicalTransform` must be canonical (canonicalizeTransform) so that equal transforms share
 * one entry. `autoFormat` (from negotiateAutoFormat, known before decoding) is part of the key
 * only for f_auto transforms; such responses must carry `Vary: Accept`. `layerVersions`: see
 * variantIdentity.
 */
export function variantCacheKey(
  storageKey: string,
  canonicalTransform: string,
  autoFormat: AutoFormatChoice,
  layerVersions: readonly string[] = [],
): string {
  return `${variantCachePrefix(storageKey)}${sha256(variantIdentity(canonicalTransform, autoFormat, layerVersions))}`;
}

/**
 * What makes one variant of a file differ from another: the canonical transform, the f_auto
 * choice (f_auto transforms only), and the content of the files its image layers name
 * (`layerVersions`, src/delivery/layer-source.ts: a replaced logo is a new variant). A transform
 * without image layers adds nothing, so keys made before layers existed stay valid.
 */
export function variantIdentity(
  canonicalTransform: string,
  autoFormat: AutoFormatChoice,
  layerVersions: readonly string[] = [],
): string {
  const negotiated = negotiatesFormat(canonicalTransform) ? autoFormat : "";
  const layers = layerVersions.length === 0 ? "" : `\n${layerVersions.join("\n")}`;
  return `${canonicalTransform}\n${negotiated}${layers}`;
}

/**
 * True when a canonical transform contains f_auto: its response depends on the Accept header,
 * so every response for it, cache hit or miss, must carry `Vary: Accept`.
 */
export function negotiatesFormat(canonicalTransform: string): boolean {
  return F_AUTO.test(canonicalTransform);
}

/** Every variant of one stored file lives under this prefix: delete it with the file. */
export function variantCachePrefix(storageKey: string, version = VARIANT_RENDERER_VERSION): string {
  return `variants/v${version}/${sha256(storageKey).slice(0, 32)}/`;
}

/**
 * The prefixes of every renderer version, the current one first: a file stored before a bump
 * may still have variants under an older one, and they go with it.
 */
export function allVariantCachePrefixes(storageKey: string): string[] {
  const prefixes: string[] = [];
  for (let version = VARIANT_RENDERER_VERSION; version >= 1; version--) {
    prefixes.push(variantCachePrefix(storageKey, version));
  }
  return prefixes;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
