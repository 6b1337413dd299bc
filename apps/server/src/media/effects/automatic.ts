import type { ImproveMode } from "@trove/schema";
import type { Sharp } from "sharp";
import { saturation, temperature } from "./colour.js";
import { type EffectStage, modulate, own } from "./effect-stage.js";
import { colourOp } from "./fuse-stages.js";
import { highlights, shadows } from "./tonal.js";

/**
 * Automatic corrections: fixed recipes of the other effects around libvips' normalise, which
 * stretches lightness (LAB L) so that the `lower` percentile becomes black and the `upper` one
 * white, the same stretch on every pixel (so hues are kept).
 */

const stretch = (lower: number, upper: number): EffectStage =>
  own(colourOp((image) => image.normalise({ lower, upper })));

/**
 * normalize: the darkest colour value of the frame becomes 0 and the lightest 255, one gain and
 * offset for all three bands (so hues are kept). libvips' normalise works on a histogram of
 * lightness and leaves a few levels at the ends (100..150 became 7..255), so the extremes are
 * read with stats (one pass) and applied with a linear.
 */
export const normalize = (): EffectStage[] => [own(colourOp(stretchToFullRange))];

async function stretchToFullRange(image: Sharp): Promise<Sharp> {
  const { channels } = await image.clone().stats();
  const colour = channels.slice(0, 3);
  const low = Math.min(...colour.map((band) => band.min));
  const high = Math.max(...colour.map((band) => band.max));
  if (high <= low) return image;
  const gain = 255 / (high - low);
  return image.linear(gain, -low * gain);
}

/**
 * auto_enhance: a stretch that ignores the 1% darkest and lightest pixels (so a few specks do not
 * decide it), then chroma × 1.1.
 */
export const autoEnhance = (): EffectStage[] => [stretch(1, 99), modulate({ saturation: 1.1 })];

/**
 * improve: a stretch ignoring 0.5% at each end, then shadows:20. With a scene: `indoor` adds
 * temperature:-25 (counters the orange of tungsten light), `outdoor` adds saturation:20 and
 * highlights:-20 (deeper skies and foliage, bright skies kept from clipping).
 */
export function improve(mode: ImproveMode | undefined): EffectStage[] {
  const scene =
    mode === "indoor" ? temperature(-25) : mode === "outdoor" ? [...saturation(20), ...highlights(-20)] : [];
  return [stretch(0.5, 99.5), ...shadows(20), ...scene];
}
