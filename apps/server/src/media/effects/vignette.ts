import sharp from "sharp";
import type { ImageOp } from "../image-op.js";
import { type EffectStage, own } from "./effect-stage.js";
import { colourOp } from "./fuse-stages.js";

/** The side of the grid the mask is computed on in JavaScript, whatever the frame's size. */
const GRID = 64;

/**
 * vignette:N (0..100): darkens towards the edges: by 0.8·N% at the corners, about half that at
 * the middle of each side, nothing inside the central ellipse that reaches 40% of the way to the
 * corners. Distances are measured in the frame's own proportions, so the shape follows it.
 *
 * The darkening is a black layer whose alpha is the mask, composited `atop`, which keeps the
 * frame's alpha and scales its colour by 1 - mask. The mask is computed on a 64×64 grid (4096
 * values, the same work for any frame) and enlarged by libvips: it is smooth, so nothing is
 * lost, and no per-pixel JavaScript runs.
 */
export const vignette = (amount: number): EffectStage[] => [own(vignetteOp(amount))];

function vignetteOp(amount: number): ImageOp {
  const grid = vignetteGrid((0.8 * amount) / 100);
  return colourOp(async (image, { width, height, channels }) => {
    // libvips enlarges grey-and-alpha into sRGB-and-alpha: the result's channels say which.
    const { data, info } = await sharp(grid, { raw: { width: GRID, height: GRID, channels: 2 } })
      .resize(width, height, { fit: "fill", kernel: "cubic" })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const darkened = image.composite([
      {
        input: data,
        raw: { width, height, channels: info.channels },
        blend: "atop",
        limitInputPixels: false,
      },
    ]);
    // composite gives a frame without alpha an opaque one; removeAlpha, applied after it, drops it.
    return channels === 3 ? darkened.removeAlpha() : darkened;
  });
}

/** Grey-and-alpha pixels: black, with the darkening as alpha. Exported for its test. */
export function vignetteGrid(strength: number): Buffer {
  const grid = Buffer.alloc(GRID * GRID * 2);
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const dx = (2 * (x + 0.5)) / GRID - 1;
      const dy = (2 * (y + 0.5)) / GRID - 1;
      // 0 at the centre, 1 at the corners.
      const r = Math.sqrt((dx * dx + dy * dy) / 2);
      const t = Math.min(1, Math.max(0, (r - 0.4) / 0.6));
      grid[(y * GRID + x) * 2 + 1] = Math.round(255 * strength * t * t * (3 - 2 * t));
    }
  }
  return grid;
}
