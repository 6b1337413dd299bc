import type { SourcePoint, TransformStep } from "@trove/schema";
import type { Size } from "../frame.js";
import { coverWindowSize, placeWindow, sideInPixels, type Window } from "../geometry-window.js";
import type { ImageOp } from "../image-op.js";
import { planResize } from "../resize-ops.js";
import type { Box } from "./box.js";
import type { FaceFocus } from "./face-focus.js";

/**
 * The geometry of a step that asked for faces, given what detection found (docs/TRANSFORMS.md,
 * "Faces"):
 * - `p_face`: the step's window (c_fill's cover window, c_crop's w×h) is centred on the faces'
 *   union, kept inside the image; other modes crop nothing, so it changes nothing there.
 * - `fo_face`: the output is framed on the faces: first a crop to their union with a margin
 *   (FaceFocus.margin); with w and h (or ar) in c_fill, that crop takes the output's shape, the
 *   smallest window of it that holds the faces; then the step's own resize applies to the crop
 *   (`fo_face,w_300` is the faces scaled to 300 px wide, no larger than they are without
 *   fl_upscale). With c_crop, which never scales, fo_face anchors the w×h window like p_face.
 * - No face found (`focus` undefined): p_face is p_c and fo_face frames nothing.
 */
export function planFocusedResize(step: TransformStep, input: Size, focus: FaceFocus | undefined): ImageOp[] {
  if (focus === undefined) return planResize(step, input);
  const frame = step.fo === "face" && step.c !== "crop" ? framingWindow(step, input, focus) : undefined;
  if (frame === undefined) return planResize(step, input, centreOf(focus.faces));
  const inFrame = { ...focus.faces, left: focus.faces.left - frame.left, top: focus.faces.top - frame.top };
  return [extractOp(frame, input), ...planResize(step, frame, centreOf(inFrame))];
}

/** The faces with their margin, in the output's shape when the step fills a box. */
function framingWindow(step: TransformStep, input: Size, focus: FaceFocus): Window {
  const grown = clampBox(
    {
      left: focus.faces.left - focus.margin,
      top: focus.faces.top - focus.margin,
      width: focus.faces.width + 2 * focus.margin,
      height: focus.faces.height + 2 * focus.margin,
    },
    input,
  );
  const aspect = (step.c ?? "fill") === "fill" ? filledAspect(step, input) : undefined;
  if (aspect === undefined) return grown;
  // The smallest window of the output's aspect around the faces, at most the largest one the
  // image holds (then the faces may be cut, as any fill of that aspect would cut them).
  const wanted =
    grown.width / grown.height > aspect
      ? { width: grown.width, height: Math.round(grown.width / aspect) }
      : { width: Math.round(grown.height * aspect), height: grown.height };
  const largest = coverWindowSize(input, { width: Math.round(aspect * 10_000), height: 10_000 });
  const size =
    wanted.width > largest.width || wanted.height > largest.height
      ? largest
      : { width: Math.max(1, wanted.width), height: Math.max(1, wanted.height) };
  return placeWindow(size, input, { kind: "point", point: centreOf(grown) });
}

/** w:h of the box a fill makes, when the step gives both sides (or one and `ar`). */
function filledAspect(step: TransformStep, input: Size): number | undefined {
  const w = typeof step.w === "number" ? sideInPixels(step.w, input.width, 1) : undefined;
  const h = sideInPixels(step.h, input.height, 1);
  if (w !== undefined && h !== undefined) return w / h;
  if (step.ar !== undefined && (w !== undefined || h !== undefined)) return step.ar.w / step.ar.h;
  return undefined;
}

/** `box` in whole pixels, inside `input`, at least 1×1. */
function clampBox(box: Box, input: Size): Window {
  const left = Math.min(input.width - 1, Math.max(0, Math.floor(box.left)));
  const top = Math.min(input.height - 1, Math.max(0, Math.floor(box.top)));
  const right = Math.max(left + 1, Math.min(input.width, Math.ceil(box.left + box.width)));
  const bottom = Math.max(top + 1, Math.min(input.height, Math.ceil(box.top + box.height)));
  return { left, top, width: right - left, height: bottom - top };
}

function centreOf(box: Box): SourcePoint {
  return { x: Math.round(box.left + box.width / 2), y: Math.round(box.top + box.height / 2) };
}

/** The framing crop; like a c_crop it runs in the decoding pipeline (fusable). */
function extractOp(window: Window, input: Size): ImageOp {
  const whole = window.width === input.width && window.height === input.height;
  return {
    fusable: true,
    skip: () => whole,
    outputSize: () => ({ width: window.width, height: window.height }),
    apply: (image) => image.extract(window),
  };
}
