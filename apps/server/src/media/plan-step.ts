import { effectsOf, type TransformStep } from "@trove/schema";
import { backgroundColour, TRANSPARENT } from "./background-colour.js";
import { effectOp } from "./effect-op.js";
import { flattenOp } from "./flatten-op.js";
import type { Size } from "./frame.js";
import type { ImageOp } from "./image-op.js";
import { planResize } from "./resize-ops.js";
import { flipOp, rotateOp } from "./rotate-op.js";
import { roundCornersOp } from "./round-corners-op.js";

/**
 * The operations of one step, in a fixed order whatever order the directives were written in:
 * resize or crop, effect, rounded corners, flip, rotation, then flattening onto `bg`. So
 * `w_300,h_200,r_90` is a 300×200 fill turned into a 200×300 image, `br_20,r_45` rotates a
 * rounded card, and `br_20,bg_white` gives white corners. Steps, not directive order, sequence
 * anything else (`r_90/w_300,h_200`). `f` and `q` concern the whole output (see output-format.ts).
 */
export function planStep(step: TransformStep, input: Size): ImageOp[] {
  const ops: (ImageOp | undefined)[] = [...planResize(step, input)];
  ops.push(...effectsOf(step).map(effectOp));
  if (step.br !== undefined && step.br !== 0) ops.push(roundCornersOp(step.br));
  if (step.flip !== undefined) ops.push(flipOp(step.flip));
  if (typeof step.r === "number") ops.push(rotateOp(step.r, backgroundColour(step.bg, TRANSPARENT)));
  if (step.bg !== undefined && step.bg !== "transparent")
    ops.push(flattenOp(backgroundColour(step.bg, TRANSPARENT)));
  return ops.filter((op) => op !== undefined);
}
