import { checkStep } from "./check-step.js";
import { formatValue } from "./format-transform.js";
import { MAX_TRANSFORM_STEPS } from "./limits.js";
import { isTransformKey, readDirective } from "./read-directive.js";
import { TransformParseError } from "./transform-parse-error.js";
import type { Transformation, TransformKey, TransformStep } from "./transform-step.js";

/**
 * Checks a typed transformation by the parser's own rules: each value is written as its
 * directive and read back with readDirective, so a bad value fails with the message the parser
 * gives for the same text (`{ q: 200 }` → `"q_200: quality must be 1..100"`). Returns the steps
 * as the parser would, without undefined keys.
 *
 * Only the syntax rules have no model counterpart: an empty step `{}` or an empty list is a
 * no-op, not an error, and canonicalises to nothing.
 */
export function validateTransform(steps: readonly TransformStep[]): Transformation {
  if (!Array.isArray(steps)) throw new TransformParseError("transform must be an array of steps");
  if (steps.length > MAX_TRANSFORM_STEPS) {
    throw new TransformParseError(`transform has more than ${MAX_TRANSFORM_STEPS} steps`);
  }
  return steps.map((step, index) => validateStep(step, index + 1));
}

function validateStep(step: TransformStep, position: number): TransformStep {
  if (typeof step !== "object" || step === null || Array.isArray(step)) {
    throw new TransformParseError(`step ${position} must be an object`);
  }
  const checked: Record<string, unknown> = {};
  const raws = new Map<TransformKey, string>();
  for (const [key, value] of Object.entries(step)) {
    if (value === undefined) continue;
    const raw = `${key}_${formatValue(value)}`;
    // Checked here too, so that a key such as `w_x` is reported as unknown rather than read as w.
    if (!isTransformKey(key)) throw new TransformParseError(`unknown key ${key}`, raw);
    const directive = readDirective(raw);
    raws.set(directive.key, raw);
    checked[directive.key] = directive.value;
  }
  checkStep(checked, (key) => raws.get(key) ?? key);
  return checked as TransformStep;
}
