import { MAX_SOURCE_COORDINATE } from "./limits.js";
import { readInteger } from "./read-integer.js";
import { POSITION_STRATEGIES, type PositionStrategy } from "./transform-step.js";
import { accept, refuse, type ValueResult } from "./value-result.js";

const REASON = `position must be one of ${POSITION_STRATEGIES.join(", ")} or a point x,y (0..${MAX_SOURCE_COORDINATE})`;

/**
 * `ps_`'s value: a strategy, or a source point `x,y`. The point's comma is the directive
 * separator too: the step reader joins `ps_10` with the bare integer directive after it, so this
 * reader sees `10,20` (see parse-step.ts).
 */
export function readPositionStrategy(text: string): ValueResult<PositionStrategy> {
  if ((POSITION_STRATEGIES as readonly string[]).includes(text)) return accept(text as PositionStrategy);
  const comma = text.indexOf(",");
  if (comma < 0) return isCoordinate(text) ? refuse("a point needs x,y (ps_10,20)") : refuse(REASON);
  const reasons = { kind: REASON, range: `point coordinates must be 0..${MAX_SOURCE_COORDINATE}` };
  const x = readInteger(text.slice(0, comma), 0, MAX_SOURCE_COORDINATE, reasons);
  if (!x.ok) return x;
  const y = readInteger(text.slice(comma + 1), 0, MAX_SOURCE_COORDINATE, reasons);
  if (!y.ok) return y;
  return accept({ x: x.value, y: y.value });
}

/** Whether a directive is a bare non-negative integer: the y of a `ps_{x},{y}` point. */
export function isCoordinate(text: string): boolean {
  if (text === "" || text.length > 16) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
