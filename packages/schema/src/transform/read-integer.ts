import { accept, refuse, type ValueResult } from "./value-result.js";

// Plain decimal only: no `+`, no leading zeros, no exponent, no `-0`, so a value has one spelling.
const INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * Reads a bounded integer. A value that is not an integer gets `kind`, one outside min..max gets
 * `range`; digits beyond double precision are necessarily out of range, so no precision is lost.
 */
export function readInteger(
  text: string,
  min: number,
  max: number,
  reasons: { kind: string; range: string },
): ValueResult<number> {
  if (!INTEGER.test(text)) return refuse(reasons.kind);
  const value = Number(text);
  return value >= min && value <= max ? accept(value) : refuse(reasons.range);
}
