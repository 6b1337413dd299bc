import { MAX_DIMENSION } from "./limits.js";
import { readDecimal } from "./read-decimal.js";
import { readInteger } from "./read-integer.js";
import type { ValueResult } from "./value-result.js";

/**
 * `w_`/`h_`: pixels 1..8192, or a fraction of the source written with a point, 0.01..0.99 with
 * at most 2 decimals (`w_0.5`). `w_1` is one pixel; `w_1.0` and `w_1.5` are refused rather than
 * read as 100 % and 150 %: a fraction is below 1, and enlargement is written in pixels.
 */
export function readSize(text: string, side: "width" | "height"): ValueResult<number> {
  const reasons = {
    kind: `${side} must be an integer 1..${MAX_DIMENSION} or a fraction 0.01..0.99`,
    range: `${side} must be an integer 1..${MAX_DIMENSION} or a fraction 0.01..0.99`,
  };
  return text.includes(".")
    ? readDecimal(text, 0.01, 0.99, 2, reasons)
    : readInteger(text, 1, MAX_DIMENSION, {
        kind: reasons.kind,
        range: `${side} must be 1..${MAX_DIMENSION}`,
      });
}
