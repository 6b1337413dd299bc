import type { OutputFormat } from "./raster-format.js";

/**
 * What `f_auto` resolves to for one Accept header: avif, webp, or `legacy` (jpeg, or png when
 * the image has alpha). It is known before anything is decoded, so delivery can look the
 * variant up in its cache first (see variantCacheKey).
 */
export type AutoFormatChoice = "avif" | "webp" | "legacy";

/**
 * Only explicit media types count: browsers that decode AVIF or WebP list them, while `*\/*` and
 * `image/*` are sent by clients that may not (curl, old browsers, some crawlers). A type with
 * q=0 is refused, per RFC 9110.
 */
export function negotiateAutoFormat(accept: string | undefined): AutoFormatChoice {
  const accepted = acceptedTypes(accept ?? "");
  if (accepted.has("image/avif")) return "avif";
  if (accepted.has("image/webp")) return "webp";
  return "legacy";
}

/** The encoder for a choice, given whether the final image has alpha. */
export function autoOutputFormat(choice: AutoFormatChoice, hasAlpha: boolean): OutputFormat {
  if (choice !== "legacy") return choice;
  return hasAlpha ? "png" : "jpeg";
}

function acceptedTypes(accept: string): Set<string> {
  const types = new Set<string>();
  // Bounded: an Accept header is at most a few hundred characters, but a hostile one need not be.
  for (const range of accept.slice(0, 4096).split(",")) {
    const [type = "", ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (type !== "" && Number.isFinite(weight) && weight > 0) types.add(type);
  }
  return types;
}
