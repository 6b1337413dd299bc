import { type EffectStage, grey, linear, modulate } from "./effect-stage.js";

/**
 * Colour effects. Gains and offsets are per band on 0..255 values (one libvips `linear`, fused
 * with its neighbours where exact); saturation, hue and grey work in LCh (`modulate`), so they
 * keep lightness. What each amount does is in docs/TRANSFORMS.md as well.
 */

/** saturation:N (-100..100): chroma × (1 + N/100); -100 is grey, 100 doubles it. */
export const saturation = (amount: number): EffectStage[] => [modulate({ saturation: 1 + amount / 100 })];

/** hue:N (-180..180): every hue turned by N degrees in LCh; 180 makes red cyan-ish. */
export const hue = (amount: number): EffectStage[] => [modulate({ hue: amount })];

/**
 * temperature:N (-100..100): white balance, blue ↔ orange: red × (1 + 0.2·N/100), blue ×
 * (1 - 0.2·N/100). Gains, so black stays black; 100 makes white (255, 255, 204).
 */
export function temperature(amount: number): EffectStage[] {
  const t = (0.2 * amount) / 100;
  return [linear([1 + t, 1, 1 - t])];
}

/**
 * warmth:N (-100..100): a warm (or, negative, cool) light over everything: red + 24·N/100, green
 * + 6·N/100, blue - 24·N/100. An offset, unlike temperature's gains, so the shadows take the
 * colour as well: the look of a warm filter rather than of a white balance.
 */
export function warmth(amount: number): EffectStage[] {
  const t = amount / 100;
  return [linear([1, 1, 1], [24 * t, 6 * t, -24 * t])];
}

/** tint:N (-100..100): green ↔ magenta, as a white balance's tint: green × (1 - 0.2·N/100). */
export const tint = (amount: number): EffectStage[] => [linear([1, 1 - (0.2 * amount) / 100, 1])];

/** grayscale: chroma 0, lightness kept. */
export const grayscale = (): EffectStage[] => [modulate({ saturation: 0 })];

/**
 * blackwhite:N (0..100): a threshold: grey (LCh lightness) at or above N% of white becomes
 * white, the rest black. 50 splits at mid-grey; 0 is all white, 100 leaves only white white.
 * The slope of 510 sends the grey level just below the threshold to 0 and the one at it to 255.
 */
export function blackwhite(amount: number): EffectStage[] {
  const threshold = Math.round((amount / 100) * 255);
  return [modulate({ saturation: 0 }), grey(510, 255 - 510 * threshold)];
}

/** invert: the negative, v → 255 - v on the colour bands. */
export const invert = (): EffectStage[] => [grey(-1, 255)];

/**
 * fade:N (0..100): washed out: every value pulled towards light grey, v × (1 - 0.5·N/100) +
 * 76.5·N/100. 100 maps black to 77 and white to 204 (contrast halved, blacks lifted).
 */
export function fade(amount: number): EffectStage[] {
  const f = amount / 100;
  return [grey(1 - 0.5 * f, 76.5 * f)];
}
