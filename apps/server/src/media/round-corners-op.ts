import type { Frame } from "./frame.js";
import { type PixelOp, sameSize } from "./image-op.js";

/**
 * `br`: rounded corners (a radius in pixels, at most half the shorter side) or, with `max`, an
 * ellipse touching all four sides. Done on the raw alpha channel rather than by compositing an
 * SVG mask, so that the process needs no SVG loader at all (see index.ts on blocking it), and
 * only edge pixels are visited. Needs a 4-channel frame: run ensureAlphaOp first.
 */
export function roundCornersOp(radius: number | "max"): PixelOp {
  return {
    kind: "pixels",
    outputSize: sameSize,
    run: (frame) => {
      if (frame.channels !== 4) throw new Error("rounded corners need an alpha channel");
      if (radius === "max") maskEllipse(frame);
      else maskCorners(frame, Math.min(radius, frame.width / 2, frame.height / 2));
    },
  };
}

/** Antialiasing: the share of a pixel inside an edge `distance` pixels away (positive outside). */
const coverage = (distance: number): number => Math.min(1, Math.max(0, 0.5 - distance));

function scaleAlpha(frame: Frame, x: number, y: number, share: number): void {
  if (share >= 1) return;
  const at = (y * frame.width + x) * 4 + 3;
  frame.data[at] = Math.round((frame.data[at] as number) * share);
}

function maskCorners(frame: Frame, radius: number): void {
  const { width, height } = frame;
  const band = Math.ceil(radius);
  for (let y = 0; y < height; y++) {
    // Only the top and bottom `band` rows hold corners.
    if (y >= band && y < height - band) y = height - band;
    const py = y + 0.5;
    const dy = py < height / 2 ? radius - py : py - (height - radius);
    if (dy <= 0) continue;
    for (let x = 0; x < width; x++) {
      if (x >= band && x < width - band) x = width - band;
      const px = x + 0.5;
      const dx = px < width / 2 ? radius - px : px - (width - radius);
      if (dx <= 0) continue;
      scaleAlpha(frame, x, y, coverage(Math.hypot(dx, dy) - radius));
    }
  }
}

function maskEllipse(frame: Frame): void {
  const { width, height } = frame;
  const rx = width / 2;
  const ry = height / 2;
  for (let y = 0; y < height; y++) {
    const py = y + 0.5 - ry;
    // Columns closer to the centre than this are inside with a pixel to spare: left untouched.
    const spare = 1 - ((Math.abs(py) + 1) / ry) ** 2;
    const inner = spare > 0 ? rx * Math.sqrt(spare) - 1 : -1;
    const skipFrom = inner > 0 ? Math.ceil(rx - inner - 0.5) : width;
    const skipTo = inner > 0 ? Math.floor(rx + inner - 0.5) : width;
    for (let x = 0; x < width; x++) {
      if (x >= skipFrom && x <= skipTo) x = skipTo + 1;
      if (x >= width) break;
      const px = x + 0.5 - rx;
      // Signed distance to the ellipse, to first order: (f - 1) / |grad f|.
      const f = (px / rx) ** 2 + (py / ry) ** 2;
      const gradient = Math.hypot((2 * px) / rx ** 2, (2 * py) / ry ** 2);
      const distance = gradient > 0 ? (f - 1) / gradient : -Math.min(rx, ry);
      scaleAlpha(frame, x, y, coverage(distance));
    }
  }
}
