/**
 * Where a delivery path's transform ends and the object's path begins. Stored files and source
 * objects read it differently:
 *
 * - a stored file's path (`basePaths`): leading segments whose every directive has a known key
 *   (`w_`, `h_`, `c_`, `f_`, ... TRANSFORM_KEYS, and the video keys `thumb_`, `so_`, `eo_`, `d_`,
 *   `cm_`...; chained steps are several segments) may be the
 *   transform; a segment with any other key (`my_photos`) is a folder name. Every split is a
 *   candidate, longest transform first, and the first one naming an existing file wins.
 * - a source object's path (`splitTransform`): the leading segments that are valid steps are the
 *   transform, with no lookup (an origin cannot be listed), so an origin object whose first
 *   segment reads as a step is not reachable.
 */
import {
  isTransformStep,
  LAYER_ONLY_URL_KEYS,
  MAX_TRANSFORM_STEPS,
  TRANSFORM_KEYS,
  VIDEO_TRANSFORM_KEYS,
} from "@trove/schema";

// The video grammar's keys too (`thumb_ar`, `so_5,eo_15`): a stored video's transform
// (./video-delivery.ts) is found like an image's, and a refused one answers 400, not 404.
const KNOWN_KEYS: ReadonlySet<string> = new Set([
  ...TRANSFORM_KEYS,
  ...LAYER_ONLY_URL_KEYS,
  ...VIDEO_TRANSFORM_KEYS,
]);

/**
 * Whether a path segment reads as one transformation step (every directive has a known key, or
 * is the bare integer y of a `ps_{x},{y}` point right after its `ps_`).
 */
export function looksLikeTransformStep(segment: string): boolean {
  if (segment === "") return false;
  const directives = segment.split(",");
  return directives.every((directive, index) => {
    const underscore = directive.indexOf("_");
    if (underscore > 0) return KNOWN_KEYS.has(directive.slice(0, underscore));
    return index > 0 && /^\d{1,16}$/.test(directive) && (directives[index - 1] as string).startsWith("ps_");
  });
}

/**
 * The files a delivery path may be a variant of, longest transform first:
 * `w_300/e_grayscale/photos/cat.jpg` -> [photos/cat.jpg, e_grayscale/photos/cat.jpg].
 */
export function basePaths(path: string): string[] {
  const segments = path.split("/");
  const steps = leadingSteps(segments, looksLikeTransformStep);
  const paths: string[] = [];
  for (let count = steps; count >= 1; count--) paths.push(segments.slice(count).join("/"));
  return paths;
}

/** `w_300/e_grayscale/products/shoe.jpg` -> transform `w_300/e_grayscale`, path `products/shoe.jpg`. */
export function splitTransform(path: string): { transform: string; path: string } {
  const segments = path.split("/");
  const steps = leadingSteps(segments, isTransformStep);
  return { transform: segments.slice(0, steps).join("/"), path: segments.slice(steps).join("/") };
}

/** Whether a stored file's path starts with a valid step: only a variant may answer it. */
export function startsWithTransformStep(path: string): boolean {
  const slash = path.indexOf("/");
  return slash > 0 && isTransformStep(path.slice(0, slash));
}

/** How many leading segments pass `isStep`, leaving at least the last one as the path. */
function leadingSteps(segments: readonly string[], isStep: (segment: string) => boolean): number {
  let steps = 0;
  const maxSteps = Math.min(segments.length - 1, MAX_TRANSFORM_STEPS);
  while (steps < maxSteps && isStep(segments[steps] as string)) steps++;
  return steps;
}
