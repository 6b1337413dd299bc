import { checkNamedStep } from "./named-transform.js";
import { TransformParseError } from "./transform-parse-error.js";
import type { TransformKey, TransformStep } from "./transform-step.js";

/**
 * Rules between the directives of one step. `rawOf` gives a directive as written, so the error
 * names it. A named transform (`t_card`) is alone in its step. `ar` derives the missing side,
 * so it needs exactly one of w and h: with both, the three would disagree.
 */
export function checkStep(step: TransformStep, rawOf: (key: TransformKey) => string): void {
  checkNamedStep(step, rawOf);
  if (step.ar === undefined) return;
  if (step.w === undefined && step.h === undefined) {
    throw new TransformParseError("aspect ratio needs w or h in the same step", rawOf("ar"));
  }
  if (step.w !== undefined && step.h !== undefined) {
    throw new TransformParseError("aspect ratio needs w or h, not both", rawOf("ar"));
  }
}
