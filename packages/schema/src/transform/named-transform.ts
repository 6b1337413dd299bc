import { TransformParseError } from "./transform-parse-error.js";
import type { TransformKey, TransformStep } from "./transform-step.js";
import { accept, refuse, type ValueResult } from "./value-result.js";

/** Longest name of a named transform (`t_<name>`). */
export const MAX_NAMED_TRANSFORM_LENGTH = 64;

// Lower case only: keys and values are case-sensitive, and one spelling per name keeps a URL,
// its cache key and the stored definition in step.
const NAME = new RegExp(`^[a-z0-9_-]{1,${MAX_NAMED_TRANSFORM_LENGTH}}$`);

/** Whether `name` can name a transform (`card`, `hero_2x`, `og-image`), without the `t_`. */
export function isNamedTransformName(name: string): boolean {
  return NAME.test(name);
}

/** The value of a `t_` directive: the name as written. */
export function readNamedTransformName(text: string): ValueResult<string> {
  return isNamedTransformName(text)
    ? accept(text)
    : refuse(`a transform name is 1 to ${MAX_NAMED_TRANSFORM_LENGTH} of a-z, 0-9, _ and -`);
}

/**
 * A named step stands for a whole transformation, so it cannot share its step with directives:
 * `t_card,w_100` would mix two definitions of the output within one step. Chaining is written
 * as steps (`t_card/e_grayscale`).
 */
export function checkNamedStep(step: TransformStep, rawOf: (key: TransformKey) => string): void {
  if (step.t === undefined) return;
  if (Object.keys(step).some((key) => key !== "t")) {
    throw new TransformParseError(
      "a named transform stands alone in its step (chain it with /, e.g. t_card/e_grayscale)",
      rawOf("t"),
    );
  }
}

/** Whether a parsed step is a named transform (`{ t: "card" }`). */
export function isNamedStep(step: TransformStep): step is TransformStep & { t: string } {
  return step.t !== undefined;
}
