import { formatTransform } from "./format-transform.js";
import { normalizeTransform, normalizeValidTransform } from "./normalize-transform.js";
import { parseTransform } from "./parse-transform.js";
import type { TransformStep } from "./transform-step.js";

/**
 * The canonical string of a typed transformation: validated, normalised (normalizeTransform),
 * directives in TRANSFORM_KEYS order. A transformation that does nothing gives "", which is not
 * itself a valid transform string: callers leave the segment out instead.
 */
export function canonicalTransform(steps: readonly TransformStep[]): string {
  return formatTransform(normalizeTransform(steps));
}

/** Parses a transform string and returns its canonical string. Throws TransformParseError. */
export function canonicalizeTransform(input: string): string {
  return formatTransform(normalizeValidTransform(parseTransform(input)));
}
