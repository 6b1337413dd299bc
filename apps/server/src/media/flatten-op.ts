import type { Colour } from "sharp";
import { type ImageOp, sameSize } from "./image-op.js";

/** `bg` in a step: whatever is transparent at the end of the step is laid on the colour. */
export function flattenOp(background: Colour): ImageOp {
  return {
    fusable: false,
    skip: (input) => input.channels === 3,
    outputSize: sameSize,
    apply: (image) => image.flatten({ background }),
  };
}
