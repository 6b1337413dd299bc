import { effectsOf, type TransformStep } from "@trove/schema";
import { backgroundColour, TRANSPARENT } from "./background-colour.js";
import { effectOps } from "./effect-op.js";
import { opacityOp } from "./effects/opacity-op.js";
import { type FaceFocus, turnFaceFocus } from "./faces/face-focus.js";
import { planFocusedResize } from "./faces/plan-focused-resize.js";
import { flattenOp } from "./flatten-op.js";
import type { Size } from "./frame.js";
import type { ImageOp } from "./image-op.js";
import type { LayerContext } from "./layers/draw-layer.js";
import { layerOp } from "./layers/layer-op.js";
import { DEFAULT_MEDIA_LIMITS } from "./media-limits.js";
import { flipOp, orientOp, rotateOp } from "./rotate-op.js";
import { roundCornersOp } from "./round-corners-op.js";

/**
 * The operations of one step, in a fixed order whatever order the directives were written in:
 * resize or crop, effect, rounded corners, flip, rotation, then flattening onto `bg`. So
 * `w_300,h_200,r_90` is a 300×200 fill turned into a 200×300 image, `br_20,r_45` rotates a
 * rounded card, and `br_20,bg_white` gives white corners. Steps, not directive order, sequence
 * anything else (`r_90/w_300,h_200`). `f` and `q` concern the whole output (see output-format.ts).
 */
export function planStep(
  step: TransformStep,
  input: Size,
  focus?: FaceFocus,
  layers: LayerContext = { limits: DEFAULT_MEDIA_LIMITS },
): ImageOp[] {
  // r_portrait / r_landscape turn first, so the resize plans for the turned size.
  const orient = typeof step.r === "string" ? orientOp(step.r, input) : undefined;
  // `focus` (the faces p_face/fo_face asked for) was found in the unturned input.
  const turned = orient && focus ? turnFaceFocus(focus, input) : focus;
  const ops: (ImageOp | undefined)[] = [
    orient,
    ...planFocusedResize(step, orient ? orient.outputSize(input) : input, turned),
  ];
  ops.push(...effectOps(effectsOf(step)));
  if (step.br !== undefined && step.br !== 0) ops.push(roundCornersOp(step.br));
  if (step.flip !== undefined) ops.push(flipOp(step.flip));
  if (typeof step.r === "number") ops.push(rotateOp(step.r, backgroundColour(step.bg, TRANSPARENT)));
  // Layers in written order, each onto the base as it is by then (layers/layer-op.ts).
  for (const layer of step.layers ?? []) ops.push(layerOp(layer, step.dpr ?? 1, layers));
  // o_: the base's opacity, after its layers (each has its own o_), before bg flattens it.
  if (step.o !== undefined) ops.push(opacityOp(step.o));
  if (step.bg !== undefined && step.bg !== "transparent")
    ops.push(flattenOp(backgroundColour(step.bg, TRANSPARENT)));
  return ops.filter((op) => op !== undefined);
}
