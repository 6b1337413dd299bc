import { formatTransform } from "./format-transform.js";
import { MAX_TRANSFORM_LENGTH } from "./limits.js";
import { normalizeTransform, normalizeValidTransform } from "./normalize-transform.js";
import { parseTransform } from "./parse-transform.js";
import { TransformParseError } from "./transform-parse-error.js";
import type { Transformation, TransformStep } from "./transform-step.js";

/**
 * The canonical string of a typed transformation: validated, normalised (normalizeTransform),
 * directives in TRANSFORM_KEYS order, then layer blocks. A transformation that does nothing
 * gives "", which is not itself a valid transform string: callers leave the segment out instead.
 */
export function canonicalTransform(steps: readonly TransformStep[]): string {
  return readable(formatTransform(normalizeTransform(steps)));
}

/** Parses a transform string and returns its canonical string. Throws TransformParseError. */
export function canonicalizeTransform(input: string): string {
  return readable(formatTransform(normalizeValidTransform(parseTransform(input) as Transformation)));
}

/**
 * Canonical text is percent-encoded, so a layer's text written raw (`_` or `:`) grows when
 * canonicalised, and a typed text can be long. A canonical string the parser would refuse is
 * refused here with the parser's message: whatever the builder writes, the parser accepts.
 */
function readable(canonical: string): string {
  if (canonical.length > MAX_TRANSFORM_LENGTH) {
    throw new TransformParseError(`transform is longer than ${MAX_TRANSFORM_LENGTH} characters`);
  }
  return canonical;
}
