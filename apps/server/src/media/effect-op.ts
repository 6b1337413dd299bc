import { type Effect, type EffectName, type EffectParts, splitEffect } from "@trove/schema";
import { autoEnhance, improve, normalize } from "./effects/automatic.js";
import {
  blackwhite,
  fade,
  grayscale,
  hue,
  invert,
  saturation,
  temperature,
  tint,
  warmth,
} from "./effects/colour.js";
import { blur, sharpen, structure, unsharpMask } from "./effects/detail.js";
import type { EffectStage } from "./effects/effect-stage.js";
import { fuseStages } from "./effects/fuse-stages.js";
import { brightness, contrast, exposure, gamma, highlights, shadows } from "./effects/tonal.js";
import { vignette } from "./effects/vignette.js";
import type { ImageOp } from "./image-op.js";

/** The amount of an effect the grammar only accepts with one (schema: effect.ts's RULES). */
const n = ({ name, amount }: EffectParts): number => {
  if (amount === undefined) throw new Error(`effect ${name} reached the renderer without its amount`);
  return amount;
};

/**
 * Each effect's libvips stages, by family (src/media/effects/, one file each; every amount's
 * meaning is written there and in docs/TRANSFORMS.md). A Record, so an effect the grammar adds
 * without a renderer fails to compile.
 */
const STAGES: Record<EffectName, (effect: EffectParts) => EffectStage[]> = {
  brightness: (e) => brightness(n(e)),
  contrast: (e) => contrast(n(e)),
  exposure: (e) => exposure(n(e)),
  highlights: (e) => highlights(n(e)),
  shadows: (e) => shadows(n(e)),
  gamma: (e) => gamma(n(e)),
  saturation: (e) => saturation(n(e)),
  hue: (e) => hue(n(e)),
  temperature: (e) => temperature(n(e)),
  warmth: (e) => warmth(n(e)),
  tint: (e) => tint(n(e)),
  grayscale: () => grayscale(),
  blackwhite: (e) => blackwhite(n(e)),
  invert: () => invert(),
  fade: (e) => fade(n(e)),
  sharpen: (e) => sharpen(e.amount),
  unsharp_mask: (e) => unsharpMask(n(e)),
  structure: (e) => structure(n(e)),
  blur: (e) => blur(n(e)),
  auto_enhance: () => autoEnhance(),
  normalize: () => normalize(),
  improve: (e) => improve(e.mode),
  vignette: (e) => vignette(n(e)),
};

/**
 * `e`: the effects of a step (or of a layer), already in the canonical order (`effectsOf` in
 * @trove/schema), as libvips operations: one pass per operation, neighbours that compose exactly
 * fused into one (fuse-stages.ts). No operation touches the alpha channel; none runs a
 * per-pixel loop in JavaScript (see image-op.ts).
 */
export function effectOps(effects: readonly Effect[]): ImageOp[] {
  return fuseStages(effects.flatMap((effect) => STAGES[splitEffect(effect).name](splitEffect(effect))));
}
