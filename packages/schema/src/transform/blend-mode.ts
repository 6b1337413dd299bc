/** `bm_` (Trove extension): how a layer's pixels combine with the base's. `normal` is the default. */
export const BLEND_MODES = [
  "normal",
  "multiply",
  "screen",
  "overlay",
  "darken",
  "lighten",
  "soft-light",
  "hard-light",
  "difference",
  "exclusion",
] as const;
export type BlendMode = (typeof BLEND_MODES)[number];
