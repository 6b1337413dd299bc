import { readDecimal } from "./read-decimal.js";
import { readInteger } from "./read-integer.js";
import { accept, refuse, type ValueResult } from "./value-result.js";

/**
 * The hosted service's canonical effect order (its automatic-optimisation page); the effects it
 * does not list follow, alphabetically. A step's effects are written and rendered in this order
 * whatever order they were written in, so one set of effects has one string and one cache key.
 */
export const EFFECT_NAMES = [
  "improve",
  "unsharp_mask",
  "saturation",
  "contrast",
  "brightness",
  "gamma",
  "sharpen",
  "grayscale",
  "blackwhite",
  "auto_enhance",
  "blur",
  "exposure",
  "fade",
  "highlights",
  "hue",
  "invert",
  "normalize",
  "shadows",
  "structure",
  "temperature",
  "tint",
  "vignette",
  "warmth",
] as const;
export type EffectName = (typeof EFFECT_NAMES)[number];

type FlagEffectName = "grayscale" | "invert" | "auto_enhance" | "normalize" | "improve" | "sharpen";
type AmountEffectName = Exclude<
  EffectName,
  "grayscale" | "invert" | "auto_enhance" | "normalize" | "improve"
>;

export const IMPROVE_MODES = ["indoor", "outdoor"] as const;
export type ImproveMode = (typeof IMPROVE_MODES)[number];

/** `e_…` values: a name, or `name:N` for the effects that take an amount, or `improve:{mode}`. */
export type Effect = FlagEffectName | `${AmountEffectName}:${number}` | `improve:${ImproveMode}`;

type AmountRule =
  | { amount: "none" }
  | { amount: "mode" }
  | { amount: "required" | "optional"; min: number; max: number; decimals: number };

const amount = (min: number, max: number, decimals = 0) =>
  ({ amount: "required", min, max, decimals }) as const;

// The documented ranges. blur alone takes decimals (0.3 is its documented minimum); sharpen
// alone may be written without an amount (the flag means sharpen:100).
const RULES: Record<EffectName, AmountRule> = {
  improve: { amount: "mode" },
  unsharp_mask: amount(1, 2000),
  saturation: amount(-100, 100),
  contrast: amount(-100, 100),
  brightness: amount(-99, 100),
  gamma: amount(-50, 150),
  sharpen: { amount: "optional", min: 1, max: 2000, decimals: 0 },
  grayscale: { amount: "none" },
  blackwhite: amount(0, 100),
  auto_enhance: { amount: "none" },
  blur: amount(0.3, 1000, 2),
  exposure: amount(-100, 100),
  fade: amount(0, 100),
  highlights: amount(-100, 100),
  hue: amount(-180, 180),
  invert: { amount: "none" },
  normalize: { amount: "none" },
  shadows: amount(-100, 100),
  structure: amount(0, 100),
  temperature: amount(-100, 100),
  tint: amount(-100, 100),
  vignette: amount(0, 100),
  warmth: amount(-100, 100),
};

const isEffectName = (name: string): name is EffectName => Object.hasOwn(RULES, name);

/** `e_brightness:0` and the like change nothing: the canonical form drops them. */
const NO_OP_AT_ZERO: ReadonlySet<EffectName> = new Set<EffectName>([
  "brightness",
  "contrast",
  "saturation",
  "exposure",
  "highlights",
  "shadows",
  "gamma",
  "hue",
  "temperature",
  "warmth",
  "tint",
  "structure",
  "fade",
  "vignette",
]);

export function readEffect(text: string): ValueResult<Effect> {
  const colon = text.indexOf(":");
  const name = colon < 0 ? text : text.slice(0, colon);
  const value = colon < 0 ? undefined : text.slice(colon + 1);
  if (!isEffectName(name)) return refuse(`effect must be one of ${EFFECT_NAMES.join(", ")}`);
  const rule = RULES[name];
  if (rule.amount === "none")
    return value === undefined ? accept(name as Effect) : refuse(`${name} takes no amount`);
  if (rule.amount === "mode") {
    if (value === undefined || (IMPROVE_MODES as readonly string[]).includes(value))
      return accept(text as Effect);
    return refuse(`${name} mode must be one of ${IMPROVE_MODES.join(", ")}`);
  }
  if (value === undefined) {
    return rule.amount === "optional"
      ? accept(name as Effect)
      : refuse(`${name} needs an amount ${rule.min}..${rule.max}`);
  }
  const reasons = {
    kind:
      rule.decimals === 0
        ? `${name} must be an integer`
        : `${name} must be a number with at most ${rule.decimals} decimals`,
    range: `${name} must be ${rule.min}..${rule.max}`,
  };
  const read =
    rule.decimals === 0
      ? readInteger(value, rule.min, rule.max, reasons)
      : readDecimal(value, rule.min, rule.max, rule.decimals, reasons);
  // The number as JavaScript writes it: `blur:2.50` and `blur:2.5` are one effect.
  return read.ok ? accept(`${name}:${read.value}` as Effect) : read;
}

export interface EffectParts {
  name: EffectName;
  /** The amount of a numeric effect; undefined for a flag (sharpen without amount means 100). */
  amount: number | undefined;
  /** `improve:indoor` / `improve:outdoor`. */
  mode: ImproveMode | undefined;
}

/** Name, amount and mode of a valid effect, for the renderer. */
export function splitEffect(effect: Effect): EffectParts {
  const colon = effect.indexOf(":");
  const name = (colon < 0 ? effect : effect.slice(0, colon)) as EffectName;
  const value = colon < 0 ? undefined : effect.slice(colon + 1);
  if (name === "improve") return { name, amount: undefined, mode: value as ImproveMode | undefined };
  return { name, amount: value === undefined ? undefined : Number(value), mode: undefined };
}

/** brightness:0, contrast:0, hue:0 and the like change nothing. */
export function isNoOpEffect(effect: Effect): boolean {
  const { name, amount } = splitEffect(effect);
  return amount === 0 && NO_OP_AT_ZERO.has(name);
}

export const effectName = (effect: Effect): EffectName => splitEffect(effect).name;

const RANK = new Map<string, number>(EFFECT_NAMES.map((name, index) => [name, index]));

/** Effects sorted into the canonical order (EFFECT_NAMES). */
export function sortEffects(effects: readonly Effect[]): Effect[] {
  return [...effects].sort((a, b) => (RANK.get(effectName(a)) ?? 0) - (RANK.get(effectName(b)) ?? 0));
}

/**
 * The effects of a step or a layer as a list in the canonical (render) order: `e` holds one
 * effect as a string and several as an array.
 */
export function effectsOf(holder: { e?: Effect | readonly Effect[] | undefined }): Effect[] {
  const { e } = holder;
  if (e === undefined) return [];
  return typeof e === "string" ? [e] : sortEffects(e);
}
