import sharp from "sharp";
import type { ImageOp } from "../image-op.js";
import { type EffectStage, own } from "./effect-stage.js";
import { colourOp } from "./fuse-stages.js";
import { colourBands, withOwnAlpha } from "./own-alpha.js";

/** The side of the grid the mask is computed on in JavaScript, whatever the frame's size. */
const GRID = 64;

/**
 * vignette:N (0..100): darkens towards the edges: by 0.8·N% at the corners, about half that at
 * the middle of each side, nothing inside the central ellipse that reaches 40% of the way to the
 * corners. Distances are measured in the frame's own proportions, so the shape follows it.
 *
 * libvips multiplies the colour by a grey mask (1 at the centre, 1 - 0.8·N/100 at the corners).
 * The mask is computed on a 64×64 grid (4096 values, the same work for any frame) and enlarged by
 * libvips, one byte per pixel: it is smooth, so nothing is lost, and no per-pixel JavaScript
 * runs. A multiply blend recomputes alpha, so a frame with alpha is darkened on its colour bands
 * and gets its own alpha back (own-alpha.ts).
 */
export const vignette = (amount: number): EffectStage[] => [own(vignetteOp(amount))];

function vignetteOp(amount: number): ImageOp {
  const grid = vignetteGrid((0.8 * amount) / 100);
  return colourOp(async (image, input) => {
    const { width, height } = input;
    const mask = await sharp(grid, { raw: { width: GRID, height: GRID, channels: 1 } })
      .resize(width, height, { fit: "fill", kernel: "cubic" })
      .toColourspace("b-w")
      .raw()
      .toBuffer();
    return withOwnAlpha(image, input, async (frame) =>
      (await colourBands(frame, input))
        // composite reads a one-band image as opaque grey, and adds an opaque alpha band to the
        // frame to blend in; removeAlpha, applied after it, drops that band.
        .composite([
          { input: mask, raw: { width, height, channels: 1 }, blend: "multiply", limitInputPixels: false },
        ])
        .removeAlpha(),
    );
  });
}

/** The mask on the grid: 255 where nothing darkens, 255 × (1 - strength) at the corners. */
function vignetteGrid(strength: number): Buffer {
  const grid = Buffer.alloc(GRID * GRID);
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const dx = (2 * (x + 0.5)) / GRID - 1;
      const dy = (2 * (y + 0.5)) / GRID - 1;
      // 0 at the centre, 1 at the corners.
      const r = Math.sqrt((dx * dx + dy * dy) / 2);
      const t = Math.min(1, Math.max(0, (r - 0.4) / 0.6));
      grid[y * GRID + x] = Math.round(255 * (1 - strength * t * t * (3 - 2 * t)));
    }
  }
  return grid;
}
