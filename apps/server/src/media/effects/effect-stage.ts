import type { ImageOp } from "../image-op.js";

/** A value per colour band, red, green, blue. Alpha is never in it: no effect changes alpha. */
export type Rgb = readonly [number, number, number];

/**
 * What one effect asks of libvips, before the stages of a step's effects are fused (see
 * fuse-stages.ts): a per-band `a·v + b` on 0..255 values, a modulation in LCh (lightness ×,
 * chroma ×, hue + degrees), or an operation of its own. Linear and modulate stages are the
 * fusable kinds: two in a row become one libvips pass when that gives the same image.
 */
export type EffectStage =
  | { kind: "linear"; a: Rgb; b: Rgb }
  | { kind: "modulate"; brightness: number; saturation: number; hue: number }
  | { kind: "op"; op: ImageOp };

export const linear = (a: Rgb, b: Rgb = [0, 0, 0]): EffectStage => ({ kind: "linear", a, b });

/** The same `a·v + b` on the three colour bands. */
export const grey = (a: number, b = 0): EffectStage => linear([a, a, a], [b, b, b]);

export const modulate = (
  change: Partial<{ brightness: number; saturation: number; hue: number }>,
): EffectStage => ({ kind: "modulate", brightness: 1, saturation: 1, hue: 0, ...change });

export const own = (op: ImageOp): EffectStage => ({ kind: "op", op });
