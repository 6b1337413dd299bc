import type { ImageOp } from "../image-op.js";
import { type EffectStage, grey, modulate, own } from "./effect-stage.js";
import { colourOp } from "./fuse-stages.js";
import { colourBands, withOwnAlpha } from "./own-alpha.js";

/**
 * Tonal effects: how light each value is, never its hue. Amounts are the documented ones; what
 * each does is in docs/TRANSFORMS.md ("Effects: what each amount does") and below.
 */

/** brightness:N (-99..100): lightness (LCh L) × (1 + N/100); -99 is nearly black, 100 doubles it. */
export const brightness = (amount: number): EffectStage[] => [modulate({ brightness: 1 + amount / 100 })];

/**
 * contrast:N (-100..100): a stretch about mid-grey (128) with slope 1 + N/100: -100 is flat
 * grey, 100 doubles every distance from mid-grey (clipping at black and white).
 */
export function contrast(amount: number): EffectStage[] {
  const slope = 1 + amount / 100;
  return [grey(slope, 128 * (1 - slope))];
}

/**
 * exposure:N (-100..100): N/50 stops, as a camera's exposure: linear light × 2^(N/50), which on
 * sRGB values (taken as a 2.2 power curve) is × 2^(N/110). ±100 is ±2 stops; black stays black.
 */
export const exposure = (amount: number): EffectStage[] => [grey(2 ** (amount / 110))];

/**
 * gamma:N (-50..150): mid-tones, through the power curve v^(1/g) with g = 1 + N/100 on 0..1
 * values: 100 gives √v (mid-grey 128 → 181), -50 gives v² (128 → 64); black and white stay.
 * sharp's gamma(in, out) raises to in/out, each 1..3, which covers g = 0.5..2.5 exactly.
 */
export function gamma(amount: number): EffectStage[] {
  const g = 1 + amount / 100;
  return [own(colourOp((image) => (g >= 1 ? image.gamma(1, g) : image.gamma(1 / g, 1))))];
}

/**
 * highlights:N (-100..100): only the values above mid-grey, moved along a line through mid-grey
 * with slope 1 + N/200: 100 brightens them (192 → 224, the brightest clip to white), -100
 * recovers them (255 → 191.5). Values at or below 128 are untouched.
 */
export function highlights(amount: number): EffectStage[] {
  const k = amount / 200;
  return [own(kneeOp(1 + k, -128 * k, amount > 0 ? "lighten" : "darken"))];
}

/**
 * shadows:N (-100..100): only the values below mid-grey, moved along a line through mid-grey with
 * slope 1 - N/200: 100 lifts them (black → 64), -100 deepens them (64 → 32, the darkest clip to
 * black). Values at or above 128 are untouched.
 */
export function shadows(amount: number): EffectStage[] {
  const k = amount / 200;
  return [own(kneeOp(1 - k, 128 * k, amount > 0 ? "lighten" : "darken"))];
}

/**
 * A curve that bends at mid-grey: the larger (lighten) or smaller (darken) of v and the line
 * slope·v + offset, which crosses v at 128. libvips blends the frame with that line's copy of it:
 * two passes, no per-pixel JavaScript. The blend would recompute alpha, so it runs on the colour
 * bands alone and the frame's alpha is joined back.
 */
function kneeOp(slope: number, offset: number, blend: "lighten" | "darken"): ImageOp {
  return colourOp((image, input) =>
    withOwnAlpha(image, input, async (frame) => {
      const rgb = await colourBands(frame, input);
      const line = await rgb.clone().linear(slope, offset).raw().toBuffer();
      const raw = { width: input.width, height: input.height, channels: 3 } as const;
      // composite adds an opaque alpha band to blend in; removeAlpha (applied after it) drops it.
      return rgb.composite([{ input: line, raw, blend, limitInputPixels: false }]).removeAlpha();
    }),
  );
}
