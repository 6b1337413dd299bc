import type { Sharp } from "sharp";
import type { Frame, FrameShape, Size } from "./frame.js";

interface ImageOpBase {
  /**
   * The size of the result for an input of `input`'s size, exact or an upper bound. The runner
   * checks it against maxOutputPixels before running the op, so nothing over the cap is ever
   * allocated.
   */
  outputSize(input: Size): Size;
}

/** An operation libvips does: one per pipeline, because sharp orders operations itself. */
export interface SharpOp extends ImageOpBase {
  kind: "sharp";
  /**
   * May run in the decoding pipeline itself (right after auto-orientation). Only resize and
   * extract are: libvips then shrinks or crops while decoding, so a large source is never
   * held whole in memory.
   */
  fusable: boolean;
  /** True when the op would change nothing for this input, to save a pass. */
  skip?(input: FrameShape): boolean;
  apply(image: Sharp, input: FrameShape): Sharp;
}

/** An operation done in JavaScript on the raw pixels, in place. */
export interface PixelOp extends ImageOpBase {
  kind: "pixels";
  run(frame: Frame): void;
}

export type ImageOp = SharpOp | PixelOp;

export const sameSize = (input: Size): Size => ({ width: input.width, height: input.height });
