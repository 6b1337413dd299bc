import type { Colour } from "sharp";

export const TRANSPARENT: Colour = { r: 0, g: 0, b: 0, alpha: 0 };

/**
 * A `bg` value for sharp. The grammar allows only CSS basic colour names (all of which sharp's
 * colour parser knows), `transparent` and 6-digit hex, so nothing else needs handling.
 */
export function backgroundColour(bg: string | undefined, fallback: Colour): Colour {
  if (bg === undefined) return fallback;
  if (bg === "transparent") return TRANSPARENT;
  return /^[0-9a-fA-F]{6}$/.test(bg) ? `#${bg}` : bg;
}
