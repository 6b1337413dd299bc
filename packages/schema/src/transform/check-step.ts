import { TransformParseError } from "./transform-parse-error.js";
import type { TransformKey, TransformStep } from "./transform-step.js";

/**
 * Rules between the directives of one step. `rawOf` gives a directive as written, so the error
 * names it. `ar` derives a missing side, so
 * it needs w or h; with both it is ignored (the hosted documentation's rule), and the canonical
 * form drops it.
 */
export function checkStep(step: TransformStep, rawOf: (key: TransformKey) => string): void {
  if (step.ar !== undefined && step.w === undefined && step.h === undefined) {
    throw new TransformParseError("aspect ratio needs w or h in the same step", rawOf("ar"));
  }
}
