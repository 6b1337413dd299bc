import type { AspectRatio } from "./transform-step.js";
import { accept, refuse, type ValueResult } from "./value-result.js";

const NUMBER = /^[0-9]+(\.[0-9]+)?$/;
// At most 4 integer digits and 2 decimals: 0.01..9999.99, exact in hundredths.
const TERM = /^(0|[1-9][0-9]{0,3})(\.[0-9]{1,2})?$/;

const KIND = "aspect ratio must be W:H with two positive numbers";
const RANGE = "aspect ratio terms must be 0.01..9999.99 with at most 2 decimals";

export function readAspectRatio(text: string): ValueResult<AspectRatio> {
  const terms = text.split(":");
  if (terms.length !== 2 || !terms.every((term) => NUMBER.test(term))) return refuse(KIND);
  const [w, h] = terms.map(Number) as [number, number];
  if (!terms.every((term) => TERM.test(term)) || w === 0 || h === 0) return refuse(RANGE);
  return accept({ w, h });
}

/**
 * One spelling per ratio: the lowest integer terms (32:18 → 16:9, 1.5:1 → 3:2) when both fit in
 * 1..9999, else the lowest terms in hundredths (9999.99:0.01 stays as it is). Either way the
 * result is itself a valid ratio, so canonicalisation is idempotent.
 */
export function canonicalAspectRatio({ w, h }: AspectRatio): AspectRatio {
  const a = Math.round(w * 100);
  const b = Math.round(h * 100);
  const d = gcd(a, b);
  const p = a / d;
  const q = b / d;
  return p <= 9999 && q <= 9999 ? { w: p, h: q } : { w: p / 100, h: q / 100 };
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
