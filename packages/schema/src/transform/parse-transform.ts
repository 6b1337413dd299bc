import { checkStep } from "./check-step.js";
import { MAX_TRANSFORM_LENGTH, MAX_TRANSFORM_STEPS } from "./limits.js";
import { readDirective } from "./read-directive.js";
import { TransformParseError } from "./transform-parse-error.js";
import type { Transformation, TransformKey, TransformStep } from "./transform-step.js";

/**
 * Parses `w_300,h_300,c_fill/e_grayscale` into its steps, values as written (`f_jpeg` stays
 * `jpeg`; see normalizeTransform for the canonical model). Throws TransformParseError.
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
  return input.split("/").map((text, index) => parseStep(text, index + 1));
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

function parseStep(text: string, position: number): TransformStep {
  if (text === "") throw new TransformParseError(`step ${position} is empty`);
  const step: Record<string, unknown> = {};
  const raws = new Map<TransformKey, string>();
  for (const raw of text.split(",")) {
    if (raw === "") throw new TransformParseError(`step ${position} has an empty directive`);
    const { key, value } = readDirective(raw);
    if (raws.has(key)) throw new TransformParseError(`key ${key} is repeated in the step`, raw);
    raws.set(key, raw);
    step[key] = value;
  }
  checkStep(step, (key) => raws.get(key) ?? key);
  return step as TransformStep;
}
