import { accept, refuse, type ValueResult } from "./value-result.js";

/**
 * Reads a bounded non-negative decimal with at most `decimals` digits after the point: `1.5`,
 * `2.0`, `0.25`, `1000`. Scanned by hand (no regex, so no backtracking on long input). Leading
 * zeros, a bare `.5` or `5.`, signs and exponents are refused; trailing zeros after the point are
 * read (`z_2.0` is in the hosted documentation) and the canonical form writes the number as
 * JavaScript prints it (`2`).
 */
export function readDecimal(
  text: string,
  min: number,
  max: number,
  decimals: number,
  reasons: { kind: string; range: string },
): ValueResult<number> {
  if (!isDecimal(text, decimals)) return refuse(reasons.kind);
  const value = Number(text);
  return value >= min && value <= max ? accept(value) : refuse(reasons.range);
}

/** Whether text is `0`, or `[1-9][0-9]*`, optionally followed by `.` and 1..decimals digits. */
export function isDecimal(text: string, decimals: number): boolean {
  const point = text.indexOf(".");
  const whole = point < 0 ? text : text.slice(0, point);
  if (!isDigits(whole) || (whole.length > 1 && whole.startsWith("0"))) return false;
  if (point < 0) return true;
  const fraction = text.slice(point + 1);
  return fraction.length >= 1 && fraction.length <= decimals && isDigits(fraction);
}

function isDigits(text: string): boolean {
  if (text === "") return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
