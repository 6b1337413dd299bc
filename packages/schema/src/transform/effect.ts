import { readInteger } from "./read-integer.js";
import { accept, refuse, type ValueResult } from "./value-result.js";

export const EFFECT_NAMES = [
  "grayscale",
  "invert",
  "blur",
  "sharpen",
  "brightness",
  "contrast",
  "saturation",
] as const;
export type EffectName = (typeof EFFECT_NAMES)[number];

/** `e_…` values: a name, or `name:N` for the effects that take an amount. */
export type Effect =
  | "grayscale"
  | "invert"
  | "sharpen"
  | `${"blur" | "sharpen" | "brightness" | "contrast" | "saturation"}:${number}`;

type AmountRule = { amount: "none" } | { amount: "required" | "optional"; min: number; max: number };

// sharpen:N takes 1..100 like blur: a negative sharpening is not a thing sharp can do.
const RULES: Record<EffectName, AmountRule> = {
  grayscale: { amount: "none" },
  invert: { amount: "none" },
  blur: { amount: "required", min: 1, max: 100 },
  sharpen: { amount: "optional", min: 1, max: 100 },
  brightness: { amount: "required", min: -100, max: 100 },
  contrast: { amount: "required", min: -100, max: 100 },
  saturation: { amount: "required", min: -100, max: 100 },
};

const isEffectName = (name: string): name is EffectName => Object.hasOwn(RULES, name);

export function readEffect(text: string): ValueResult<Effect> {
  const colon = text.indexOf(":");
  const name = colon < 0 ? text : text.slice(0, colon);
  const amount = colon < 0 ? undefined : text.slice(colon + 1);
  if (!isEffectName(name)) {
    return refuse(
      "effect must be one of grayscale, invert, blur:N, sharpen, sharpen:N, brightness:N, contrast:N, saturation:N",
    );
  }
  const rule = RULES[name];
  if (rule.amount === "none")
    return amount === undefined ? accept(name as Effect) : refuse(`${name} takes no amount`);
  if (amount === undefined) {
    return rule.amount === "optional"
      ? accept(name as Effect)
      : refuse(`${name} needs an amount ${rule.min}..${rule.max}`);
  }
  const read = readInteger(amount, rule.min, rule.max, {
    kind: `${name} amount must be an integer`,
    range: `${name} amount must be ${rule.min}..${rule.max}`,
  });
  return read.ok ? accept(text as Effect) : read;
}

/** Name and amount of a valid effect, for the renderer. */
export function splitEffect(effect: Effect): { name: EffectName; amount: number | undefined } {
  const [name, amount] = effect.split(":") as [EffectName, string | undefined];
  return { name, amount: amount === undefined ? undefined : Number(amount) };
}

/** brightness:0, contrast:0 and saturation:0 change nothing. */
export function isNoOpEffect(effect: Effect): boolean {
  const { name, amount } = splitEffect(effect);
  return amount === 0 && (name === "brightness" || name === "contrast" || name === "saturation");
}
