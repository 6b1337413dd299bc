import sharp from "sharp";
import type { ImageOp } from "../image-op.js";
import { type EffectStage, own } from "./effect-stage.js";
import { colourOp } from "./fuse-stages.js";
import { withOwnAlpha } from "./own-alpha.js";

/**
 * Detail effects: sharpening, local contrast and blur. libvips' sharpen works on lightness (LAB
 * L, 0..100): out = L + f(L - gaussian(L)), with slope m1 on differences below x1 ("flat"), m2
 * above it ("jagged"), and the change capped at y2 brighter and y3 darker. Every sigma here is
 * fixed or bounded by the frame's size, so a large amount costs no more than a small one.
 */

/**
 * sharpen (flag = sharpen:100), sharpen:N (1..2000): N% of sharp's standard sharpen (sigma 1,
 * m1 1, m2 2, caps 10 and 20): slopes × N/100, caps × N/100 up to all of L's range. Since
 * issue #32 this scale replaces the old sharpen:1..100 (a sigma of 0.55..5.5), so an old
 * `e_sharpen:50` now sharpens less than it did; the flag was sharp's fast 3×3 sharpen.
 */
export function sharpen(amount = 100): EffectStage[] {
  const f = amount / 100;
  return [
    own(
      colourOp((image) =>
        image.sharpen({
          sigma: 1,
          m1: f,
          m2: 2 * f,
          x1: 2,
          y2: Math.min(100, 10 * f),
          y3: Math.min(100, 20 * f),
        }),
      ),
    ),
  ];
}

/**
 * unsharp_mask:N (1..2000): the classic unsharp mask, radius sigma 1.5: out = L + (N/100)·(L -
 * blurred L), with no threshold and no cap (flat and jagged areas alike): 100 adds the detail
 * once more, 2000 twenty times.
 */
export function unsharpMask(amount: number): EffectStage[] {
  const a = amount / 100;
  return [own(colourOp((image) => image.sharpen({ sigma: 1.5, m1: a, m2: a, x1: 0, y2: 100, y3: 100 })))];
}

/**
 * structure:N (0..100): local contrast ("clarity"): an unsharp mask with a wide radius (sigma 8,
 * or an eighth of the frame's shorter side if smaller) and amount N/50, the change capped at 25
 * (of L's 100) so edges do not halo: 100 doubles the contrast of 8-pixel-scale texture.
 */
export function structure(amount: number): EffectStage[] {
  const a = amount / 50;
  return [
    own(
      colourOp((image, { width, height }) =>
        image.sharpen({
          sigma: Math.max(0.5, Math.min(8, Math.min(width, height) / 8)),
          m1: a,
          m2: a,
          x1: 0,
          y2: 25,
          y3: 25,
        }),
      ),
    ),
  ];
}

/** Sigmas up to this blur the frame itself: libvips' cost grows with the sigma (about 7σ per pixel). */
const DIRECT_SIGMA = 16;
/** What a larger blur runs with, on a copy shrunk by sigma / SHRUNK_SIGMA. */
const SHRUNK_SIGMA = 8;

/**
 * blur:N (0.3..1000, two decimals): a Gaussian blur of sigma N pixels, the frame's edges
 * extended by copying them. Since issue #32 the documented 0.3..1000 scale replaces the old
 * 1..100 one (sigma N/4), so an old `e_blur:20` now blurs four times as much. The alpha is kept
 * as it is (see own-alpha.ts).
 *
 * Cost: libvips' Gaussian costs about 7σ operations per pixel, so sigma 1000 on a 40 MP frame
 * would take minutes. Up to sigma 16 the frame is blurred as it is; above, the blur runs with
 * sigma 8 on a copy shrunk by sigma/8, which is enlarged back (cubic): what that loses is detail
 * finer than sigma/8, which such a blur removes anyway, and the cost is that of two resizes
 * whatever the sigma. The sigma is bounded by 8 × the frame's longer side: there the copy is one
 * pixel, the frame's mean colour, and no larger sigma changes anything.
 */
export const blur = (amount: number): EffectStage[] => [own(blurOp(amount))];

function blurOp(sigma: number): ImageOp {
  return colourOp((image, input) =>
    withOwnAlpha(image, input, async (frame) => {
      const { width, height } = input;
      const bounded = Math.min(sigma, SHRUNK_SIGMA * Math.max(width, height));
      if (bounded <= DIRECT_SIGMA) return frame.blur(bounded);
      const factor = bounded / SHRUNK_SIGMA;
      const { data, info } = await frame
        .resize(Math.max(1, Math.round(width / factor)), Math.max(1, Math.round(height / factor)), {
          fit: "fill",
        })
        .blur(SHRUNK_SIGMA)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const raw = { width: info.width, height: info.height, channels: info.channels };
      return sharp(data, { raw, limitInputPixels: false }).resize(width, height, {
        fit: "fill",
        kernel: "cubic",
      });
    }),
  );
}
