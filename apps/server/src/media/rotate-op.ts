import type { Flip, RotationMode } from "@trove/schema";
import type { Colour } from "sharp";
import { TRANSPARENT } from "./background-colour.js";
import type { Size } from "./frame.js";
import { type ImageOp, sameSize } from "./image-op.js";

/**
 * `r`: right angles are lossless transposes; any other angle rotates onto `background`
 * (transparent unless `bg` says otherwise; libvips adds the alpha channel it needs).
 */
export function rotateOp(degrees: number, background: Colour): ImageOp | undefined {
  const angle = ((degrees % 360) + 360) % 360;
  if (angle === 0) return undefined;
  if (angle % 90 === 0) {
    return {
      fusable: false,
      outputSize: (input) => (angle === 180 ? sameSize(input) : { width: input.height, height: input.width }),
      apply: (image) => image.rotate(angle),
    };
  }
  return {
    fusable: false,
    outputSize: (input) => boundingBox(input, angle),
    apply: (image) => image.rotate(angle, { background }),
  };
}

/**
 * `r_portrait` / `r_landscape`: a quarter turn clockwise when the input is not already tall /
 * wide (a square is both); decided first in a step, so the resize sees the turned image.
 * `r_auto` adds nothing: openImage already applies the EXIF orientation at decode, for every
 * request (the hosted service's "orient from EXIF" is Trove's default), so it is accepted and
 * does nothing.
 */
export function orientOp(mode: RotationMode, input: Size): ImageOp | undefined {
  if (mode === "auto") return undefined;
  const turn = mode === "portrait" ? input.width > input.height : input.height > input.width;
  return turn ? rotateOp(90, TRANSPARENT) : undefined;
}

/** The box around a rotated w×h rectangle, rounded up (plus one for libvips' own rounding). */
function boundingBox({ width, height }: Size, angle: number): Size {
  const radians = (angle * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  return {
    width: Math.ceil(width * cos + height * sin) + 1,
    height: Math.ceil(width * sin + height * cos) + 1,
  };
}

/** `flip`: h mirrors left to right (sharp's flop), v top to bottom (sharp's flip). */
export function flipOp(flip: Flip): ImageOp {
  return {
    fusable: false,
    outputSize: sameSize,
    apply: (image) => {
      const flopped = flip === "h" || flip === "hv" ? image.flop() : image;
      return flip === "v" || flip === "hv" ? flopped.flip() : flopped;
    },
  };
}
