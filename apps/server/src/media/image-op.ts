import type { Sharp } from "sharp";
import type { FrameShape, Size } from "./frame.js";

/**
 * One operation of a step, done by libvips: one per pipeline, because sharp orders the operations
 * of a pipeline itself. There is deliberately no kind of operation that works on the pixels in
 * JavaScript: the delivery host renders for anyone, and a per-pixel loop on the event loop lets
 * a few requests stall every other one (rounded corners used to be such a loop).
 */
export interface ImageOp {
  /**
   * The size of the result for an input of `input`'s size, exact or an upper bound. The runner
   * checks it against the limits before running the op, so nothing over them is ever allocated.
   */
  outputSize(input: Size): Size;
  /**
   * May run in the decoding pipeline itself (right after auto-orientation). Only resize and
   * extract are: libvips then shrinks or crops while decoding, so a large source is never
   * held whole in memory.
   */
  fusable: boolean;
  /**
   * True when the result can hold pixels the input did not have (padding in a background colour,
   * which may be transparent): such an op cannot go straight to a JPEG encoder, whose flattening
   * sharp would apply before it.
   */
  pads?: boolean;
  /** True when the op would change nothing for this input, to save a pass. */
  skip?(input: FrameShape): boolean;
  /**
   * Adds the operation to `image`, a pipeline over a frame of `input`'s shape (or the source).
   * Asynchronous when it first has libvips make an input of its own (rounded corners' mask).
   */
  apply(image: Sharp, input: FrameShape): Sharp | Promise<Sharp>;
}

export const sameSize = (input: Size): Size => ({ width: input.width, height: input.height });
