import { canonicalTransform } from "./canonical-transform.js";
import type { TransformStep } from "./transform-step.js";

const isStepList = (steps: TransformStep | readonly TransformStep[]): steps is readonly TransformStep[] =>
  Array.isArray(steps);

/**
 * Writes the canonical string of one step or a list of steps, checked by the parser's rules:
 * `buildTransform({ w: 300, h: 300, c: "fill", f: "webp" })` → `"w_300,h_300,c_fill,f_webp"`.
 * Invalid input throws the TransformParseError the parser gives for the same directive.
 */
export function buildTransform(steps: TransformStep | readonly TransformStep[]): string {
  return canonicalTransform(isStepList(steps) ? steps : [steps]);
}
