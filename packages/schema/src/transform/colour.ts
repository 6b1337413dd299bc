import { accept, refuse, type ValueResult } from "./value-result.js";

/** CSS basic colours plus orange; each maps to its 6-digit hex. */
const NAMED_HEX = {
  black: "000000",
  silver: "c0c0c0",
  gray: "808080",
  white: "ffffff",
  maroon: "800000",
  red: "ff0000",
  purple: "800080",
  fuchsia: "ff00ff",
  green: "008000",
  lime: "00ff00",
  olive: "808000",
  yellow: "ffff00",
  navy: "000080",
  blue: "0000ff",
  teal: "008080",
  aqua: "00ffff",
  orange: "ffa500",
} as const;

/** CSS spellings of the same colours; canonicalised to the name on the right. */
const ALIASES = { grey: "gray", cyan: "aqua", magenta: "fuchsia" } as const;

export const COLOUR_NAMES = [
  ...(Object.keys(NAMED_HEX) as (keyof typeof NAMED_HEX)[]),
  ...(Object.keys(ALIASES) as (keyof typeof ALIASES)[]),
  "transparent",
] as const;
export type ColourName = (typeof COLOUR_NAMES)[number];

const HEX = /^[0-9a-fA-F]{6}$/;
const NAME_BY_HEX = new Map<string, string>(Object.entries(NAMED_HEX).map(([name, hex]) => [hex, name]));

export function readColour(text: string): ValueResult<string> {
  if (HEX.test(text) || (COLOUR_NAMES as readonly string[]).includes(text)) return accept(text);
  return refuse(`background must be a 6-digit hex colour or one of ${COLOUR_NAMES.join(", ")}`);
}

/**
 * The 6 lowercase hex digits of a colour readColour accepted (`grey` → `808080`, `FF0000` →
 * `ff0000`), or undefined for `transparent`, which has none. The video grammar stores colours so.
 */
export function hexOfColour(colour: string): string | undefined {
  if (HEX.test(colour)) return colour.toLowerCase();
  const name = canonicalColour(colour);
  return Object.hasOwn(NAMED_HEX, name) ? NAMED_HEX[name as keyof typeof NAMED_HEX] : undefined;
}

/**
 * One spelling per colour: aliases become their CSS name (grey → gray), hex is lowercased, and
 * a hex that has a name becomes the name (ffffff → white), so `bg_white` and `bg_FFFFFF` agree.
 */
export function canonicalColour(colour: string): string {
  const alias = Object.hasOwn(ALIASES, colour) ? ALIASES[colour as keyof typeof ALIASES] : undefined;
  if (alias !== undefined) return alias;
  if (!HEX.test(colour)) return colour;
  const hex = colour.toLowerCase();
  return NAME_BY_HEX.get(hex) ?? hex;
}
