import type { ImageOp } from "../image-op.js";
import { sameSize } from "../image-op.js";

/**
 * `o_N` (0..100) on the base image: its alpha × N/100; a frame without alpha gets one of N/100.
 * The colour is untouched, and no output format is changed for it: without `f` a PNG or WebP
 * keeps its transparency, and a JPEG stays a JPEG, whose encoder lays transparency on white
 * (encode-image.ts), so `o_50` of a JPEG is the photo faded halfway to white, as on paper.
 * Ask for `f_png` or `f_webp` to keep the transparency itself.
 */
export function opacityOp(opacity: number): ImageOp {
  const factor = opacity / 100;
  return {
    fusable: false,
    outputSize: sameSize,
    skip: () => opacity >= 100,
    apply: (image, input) =>
      input.channels === 4 ? image.linear([1, 1, 1, factor], [0, 0, 0, 0]) : image.ensureAlpha(factor),
  };
}
