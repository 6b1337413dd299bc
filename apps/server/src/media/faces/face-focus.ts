import type { TransformStep } from "@trove/schema";
import type { Sharp } from "sharp";
import type { Size } from "../frame.js";
import type { MediaLimits } from "../media-limits.js";
import { type Box, unionBox } from "./box.js";
import { findFaces } from "./find-faces.js";

/** What detection found for a step: the faces' union, and the room framing leaves around it. */
export interface FaceFocus {
  /** The smallest box holding every face found, in the step's input pixels. */
  faces: Box;
  /** The largest face: what the window keeps when it cannot hold them all. */
  main: Box;
  /** Added on every side of `faces` when `fo_face` frames the output on them (px). */
  margin: number;
}

/**
 * Room around the faces when fo_face frames them, as a share of the largest face's larger side:
 * a detector's box runs from brow to chin, so half a face on each side keeps the hair, the ears
 * and the top of the shoulders.
 */
const FRAME_MARGIN = 0.5;

/** True when the step asks for faces (p_face or fo_face): it then needs detection. */
export function wantsFaces(step: TransformStep): boolean {
  return step.p === "face" || step.fo === "face";
}

/**
 * Detects the faces in the step's input when the step asks for them; undefined when it does not
 * or when there are none (p_face then falls back to the centre, fo_face frames nothing).
 */
export async function findFaceFocus(
  step: TransformStep,
  source: () => Sharp,
  input: Size,
  limits: MediaLimits,
): Promise<FaceFocus | undefined> {
  if (!wantsFaces(step)) return undefined;
  const faces = await findFaces(source(), input, limits);
  const union = unionBox(faces);
  if (union === undefined) return undefined;
  const main = faces.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
  return { faces: union, main, margin: FRAME_MARGIN * Math.max(main.width, main.height) };
}

/** The focus as seen after a quarter turn clockwise of a `input`-sized image (r_portrait/r_landscape). */
export function turnFaceFocus(focus: FaceFocus, input: Size): FaceFocus {
  const turn = ({ left, top, width, height }: Box): Box => ({
    left: input.height - top - height,
    top: left,
    width: height,
    height: width,
  });
  return { ...focus, faces: turn(focus.faces), main: turn(focus.main) };
}
