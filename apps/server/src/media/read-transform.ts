import {
  isNamedStep,
  normalizeTransform,
  parseTransform,
  type Transformation,
  TransformParseError,
} from "@trove/schema";
import { MediaError } from "./media-error.js";

/**
 * A transform as callers have it (a string from a request, or steps) in its canonical model:
 * validated, normalised (r into 0..359, f_jpeg as f_jpg, no-op steps gone). An empty result
 * means "no transformation". Grammar errors become 400 INVALID_TRANSFORM, message unchanged
 * (it names the directive, e.g. "q_200: quality must be 1..100").
 *
 * A named step (`t_card`) is refused the same way: only the delivery host knows the workspace's
 * names and replaces them first (src/transforms/resolve-transform.ts); one that gets this far
 * would otherwise render as a no-op.
 */
export function readTransform(transform: Transformation | string | undefined): Transformation {
  if (transform === undefined) return [];
  try {
    const steps = normalizeTransform(typeof transform === "string" ? parseTransform(transform) : transform);
    const named = steps.find(isNamedStep);
    if (named) throw new TransformParseError("named transforms apply at delivery only", `t_${named.t}`);
    return steps;
  } catch (error) {
    if (error instanceof TransformParseError) {
      throw new MediaError("INVALID_TRANSFORM", error.message, { cause: error });
    }
    throw error;
  }
}
