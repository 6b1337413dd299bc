import { MAX_TRANSFORM_STEPS } from "./limits.js";
import { TransformParseError } from "./transform-parse-error.js";
import type { TransformStep } from "./transform-step.js";
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
 * `t_card,e_blur:20` is the recipe, then the rest of its step: the hosted service applies the
 * stored string and then "the other tokens of the list". Read here as two steps, `t_card` and
 * `e_blur:20`, so it means, canonicalises and caches exactly as `t_card/e_blur:20` (one meaning,
 * one string), and the rest never edits the recipe's own directives (`t_card,w_100` resizes the
 * recipe's output; it does not replace the recipe's width). Two `t_` in one step stay refused
 * (a key appears once per step). The split can add a step per segment, so the step limit is
 * checked again on the result: whatever is read, the canonical string writes it within limits.
 */
export function splitNamedSteps(steps: readonly TransformStep[]): TransformStep[] {
  const split = steps.flatMap((step) => {
    if (step.t === undefined) return [step];
    const { t, ...rest } = step;
    return Object.keys(rest).length === 0 ? [step] : [{ t }, rest];
  });
  if (split.length > MAX_TRANSFORM_STEPS) {
    throw new TransformParseError(
      `transform has more than ${MAX_TRANSFORM_STEPS} steps (t_<name> followed by directives is two steps)`,
    );
  }
  return split;
}

/** Whether a parsed step is a named transform (`{ t: "card" }`). */
export function isNamedStep(step: TransformStep): step is TransformStep & { t: string } {
  return step.t !== undefined;
}
