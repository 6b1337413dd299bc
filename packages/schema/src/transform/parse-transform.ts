import { MAX_TRANSFORM_LENGTH, MAX_TRANSFORM_STEPS } from "./limits.js";
import { splitNamedSteps } from "./named-transform.js";
import { readStep } from "./parse-step.js";
import { TransformParseError } from "./transform-parse-error.js";
import type { Transformation } from "./transform-step.js";

/**
 * Parses `w_300,h_300,c_fill/e_grayscale` into its steps, values as written (`f_jpeg` stays
 * `jpeg`, `tp_ne` stays `ne`; see normalizeTransform for the canonical model). A layer's text
 * and path are decoded (`Hello%20World` → `Hello World`). A named transform followed by
 * directives is two steps (`t_card,q_90` → `[{ t: "card" }, { q: 90 }]`). Throws
 * TransformParseError.
 */
export function parseTransform(input: string): Transformation {
  if (typeof input !== "string") throw new TransformParseError("transform must be a string");
  if (input === "") throw new TransformParseError("transform is empty");
  // Both limits are checked before anything proportional to the input is allocated or parsed.
  if (input.length > MAX_TRANSFORM_LENGTH) {
    throw new TransformParseError(`transform is longer than ${MAX_TRANSFORM_LENGTH} characters`);
  }
  if (countSteps(input) > MAX_TRANSFORM_STEPS) {
    throw new TransformParseError(`transform has more than ${MAX_TRANSFORM_STEPS} steps`);
  }
  // `t_card,e_blur:20` is read as the steps `t_card` and `e_blur:20` (splitNamedSteps).
  return splitNamedSteps(input.split("/").map((text, index) => parseStep(text, index + 1)));
}

export type SafeParseTransformResult =
  | { success: true; data: Transformation }
  | { success: false; error: TransformParseError };

/** parseTransform without throwing, in the shape of zod's safeParse. */
export function safeParseTransform(input: string): SafeParseTransformResult {
  try {
    return { success: true, data: parseTransform(input) };
  } catch (error) {
    if (error instanceof TransformParseError) return { success: false, error };
    throw error;
  }
}

function countSteps(input: string): number {
  let steps = 1;
  for (let at = input.indexOf("/"); at >= 0; at = input.indexOf("/", at + 1)) steps++;
  return steps;
}

function parseStep(text: string, position: number) {
  if (text === "") throw new TransformParseError(`step ${position} is empty`);
  return readStep(text.split(","), position);
}
