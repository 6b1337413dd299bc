// fast-check arbitraries of the transform model, shared by round-trip.test.ts and limits.test.ts.
// Every value is valid; written forms use every spelling the parser accepts.
import fc from "fast-check";
import { BLEND_MODES } from "./blend-mode.js";
import { COLOUR_NAMES } from "./colour.js";
import { EFFECT_NAMES, type Effect, type EffectName } from "./effect.js";
import { FOCUS_SUBJECTS } from "./focus-subject.js";
import { formatValue } from "./format-transform.js";
import { LAYER_TYPES, type Layer, type LayerSource, TEXT_ALIGNS, TEXT_FONTS, TEXT_STYLES } from "./layer.js";
import { hasControlCharacter } from "./percent-encoding.js";
import { PLACEMENT_ALIASES, PLACEMENTS } from "./placement.js";
import { LAYER_KEYS } from "./read-layer-directive.js";
import {
  CROP_MODES,
  FLIPS,
  GRAVITIES,
  GRAVITY_ALIASES,
  IMAGE_FORMATS,
  POSITION_STRATEGIES,
  QUALITY_PRESETS,
  ROTATION_MODES,
  TRANSFORM_KEYS,
  type Transformation,
  type TransformStep,
} from "./transform-step.js";

const int = (min: number, max: number) => fc.integer({ min, max });
const hundredths = (min: number, max: number) => int(min, max).map((n) => n / 100);

// The documented ranges, written out again so that a change to effect.ts shows here.
const EFFECT_VALUES: Record<EffectName, fc.Arbitrary<Effect>> = {
  improve: fc.constantFrom<Effect>("improve", "improve:indoor", "improve:outdoor"),
  unsharp_mask: int(1, 2000).map((n): Effect => `unsharp_mask:${n}`),
  saturation: int(-100, 100).map((n): Effect => `saturation:${n}`),
  contrast: int(-100, 100).map((n): Effect => `contrast:${n}`),
  brightness: int(-99, 100).map((n): Effect => `brightness:${n}`),
  gamma: int(-50, 150).map((n): Effect => `gamma:${n}`),
  sharpen: fc.oneof(
    fc.constant<Effect>("sharpen"),
    int(1, 2000).map((n): Effect => `sharpen:${n}`),
  ),
  grayscale: fc.constant<Effect>("grayscale"),
  blackwhite: int(0, 100).map((n): Effect => `blackwhite:${n}`),
  auto_enhance: fc.constant<Effect>("auto_enhance"),
  blur: hundredths(30, 100_000).map((n): Effect => `blur:${n}`),
  exposure: int(-100, 100).map((n): Effect => `exposure:${n}`),
  fade: int(0, 100).map((n): Effect => `fade:${n}`),
  highlights: int(-100, 100).map((n): Effect => `highlights:${n}`),
  hue: int(-180, 180).map((n): Effect => `hue:${n}`),
  invert: fc.constant<Effect>("invert"),
  normalize: fc.constant<Effect>("normalize"),
  shadows: int(-100, 100).map((n): Effect => `shadows:${n}`),
  structure: int(0, 100).map((n): Effect => `structure:${n}`),
  temperature: int(-100, 100).map((n): Effect => `temperature:${n}`),
  tint: int(-100, 100).map((n): Effect => `tint:${n}`),
  vignette: int(0, 100).map((n): Effect => `vignette:${n}`),
  warmth: int(-100, 100).map((n): Effect => `warmth:${n}`),
};

/** One effect as a string, or 2..4 distinct effects as a list in any order. */
const effects: fc.Arbitrary<Effect | Effect[]> = fc
  .shuffledSubarray([...EFFECT_NAMES], { minLength: 1, maxLength: 4 })
  .chain((names) => fc.tuple(...names.map((name) => EFFECT_VALUES[name])))
  .map((list) => (list.length === 1 ? (list[0] as Effect) : list));

// Hundredths, as the parser reads them; small ratios often reduce, large ones often do not.
const ratioTerm = fc
  .oneof(
    int(1, 999_999),
    int(1, 100).map((n) => n * 100),
  )
  .map((n) => n / 100);

const size = fc.oneof(int(1, 8192), hundredths(1, 99));
const placement = fc.constantFrom(
  ...PLACEMENTS,
  ...(Object.keys(PLACEMENT_ALIASES) as (keyof typeof PLACEMENT_ALIASES)[]),
);

/** Any character a text may hold: no control character, and no lone surrogate. */
const textCharacter = fc
  .string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 })
  .filter((c) => !hasControlCharacter(c));
const text = fc.oneof(
  fc.string({ unit: textCharacter, minLength: 1, maxLength: 12 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }).filter((t) => !hasControlCharacter(t)),
);
const pathSegment = fc
  .string({ unit: textCharacter, minLength: 1, maxLength: 8 })
  .filter((s) => !s.includes("/") && !s.includes("\\") && s !== "." && s !== "..");
const path = fc.array(pathSegment, { minLength: 1, maxLength: 3 }).map((segments) => segments.join("/"));

const source: fc.Arbitrary<LayerSource> = fc.oneof(
  fc.record(
    {
      kind: fc.constant("text" as const),
      font: fc.constantFrom(...TEXT_FONTS),
      size: int(1, 512),
      style: fc.constantFrom(...TEXT_STYLES),
      align: fc.constantFrom(...TEXT_ALIGNS),
      text,
    },
    { requiredKeys: ["kind", "font", "size", "text"] },
  ),
  fc.record({ kind: fc.constant("image" as const), path }),
);

const layer: fc.Arbitrary<Layer> = fc
  .record(
    {
      source,
      type: fc.constantFrom(...LAYER_TYPES),
      lw: int(1, 8192),
      lh: int(1, 8192),
      lx: int(-8192, 8192),
      ly: int(-8192, 8192),
      x: int(-8192, 8192),
      y: int(-8192, 8192),
      tp: placement,
      ip: placement,
      co: fc.stringMatching(/^[0-9a-fA-F]{6}$/),
      o: int(0, 100),
      bm: fc.constantFrom(...BLEND_MODES),
      e: effects,
    },
    { requiredKeys: ["source"] },
  )
  .map((l) => (l.source.kind === "text" ? l : { ...l, co: undefined }));

/** Any valid step, in every spelling the parser accepts (jpeg, FFFFFF, grey, r_-90, 32:18, ne...). */
export const step: fc.Arbitrary<TransformStep> = fc
  .record(
    {
      w: fc.oneof(size, fc.constant("auto" as const)),
      h: size,
      ar: fc.record({ w: ratioTerm, h: ratioTerm }),
      c: fc.constantFrom(...CROP_MODES),
      p: fc.constantFrom(...GRAVITIES, ...(Object.keys(GRAVITY_ALIASES) as (keyof typeof GRAVITY_ALIASES)[])),
      ps: fc.oneof(
        fc.constantFrom(...POSITION_STRATEGIES),
        fc.record({ x: int(0, 65535), y: int(0, 65535) }),
      ),
      fo: fc.constantFrom(...FOCUS_SUBJECTS),
      z: hundredths(100, 500),
      dpr: hundredths(10, 1000),
      f: fc.constantFrom(...IMAGE_FORMATS),
      q: fc.oneof(int(1, 100), fc.constantFrom(...QUALITY_PRESETS)),
      r: fc.oneof(int(-360, 360), int(-36000, 36000), fc.constantFrom(...ROTATION_MODES)),
      flip: fc.constantFrom(...FLIPS),
      bg: fc.oneof(fc.constantFrom(...COLOUR_NAMES), fc.stringMatching(/^[0-9a-fA-F]{6}$/)),
      br: fc.oneof(int(0, 8192), fc.constant("max" as const)),
      o: int(0, 100),
      fl: fc.constant("upscale" as const),
      e: effects,
      layers: fc.array(layer, { minLength: 1, maxLength: 2 }),
    },
    { requiredKeys: [] },
  )
  // ar needs w or h.
  .map((s) => (s.ar !== undefined && s.w === undefined && s.h === undefined ? { ...s, w: 640 } : s));

/**
 * A named step (`t_card`), alone or with other directives (`t_card,e_blur:20`: the recipe, then
 * the rest as one more step).
 */
export const namedStep: fc.Arbitrary<TransformStep> = fc
  .tuple(fc.stringMatching(/^[a-z0-9_-]{1,64}$/), fc.option(step, { nil: undefined }))
  .map(([name, rest]) => ({ ...rest, t: name }));

/** Steps once read: a named step with other directives is two (splitNamedSteps). */
const readStepCount = (steps: readonly TransformStep[]) =>
  steps.reduce(
    (count, s) =>
      count + (s.t !== undefined && Object.entries(s).some(([k, v]) => k !== "t" && v !== undefined) ? 2 : 1),
    0,
  );

// At most 6 steps of at most 2 layers keep every canonical string under MAX_TRANSFORM_LENGTH;
// limits.test.ts checks the longest ones. At most 10 once named steps are split.
export const transformation: fc.Arbitrary<Transformation> = fc
  .array(fc.oneof(step, namedStep), { maxLength: 6 })
  .filter((steps) => readStepCount(steps) <= 10);

const HEX = "0123456789ABCDEF";

/**
 * A layer's text or path in a loose spelling the parser accepts: each character raw (unless it
 * is syntax: `,` `/` `%`) or percent-encoded, in upper or lower case hex.
 */
const looseEncoding = (value: string): fc.Arbitrary<string> =>
  fc.tuple(...[...value].map((c) => fc.tuple(fc.constant(c), fc.boolean(), fc.boolean()))).map((chars) =>
    chars
      .map(([c, raw, lower]) => {
        if (raw && !",/%".includes(c)) return c;
        const escaped = [...new TextEncoder().encode(c)]
          .map((byte) => `%${HEX[byte >> 4]}${HEX[byte & 15]}`)
          .join("");
        return lower ? escaped.toLowerCase() : escaped;
      })
      .join(""),
  );

const sourceDirective = (s: LayerSource): fc.Arbitrary<string> =>
  s.kind === "image"
    ? looseEncoding(s.path).map((p) => `l_image:${p}`)
    : looseEncoding(s.text).map(
        (t) => `l_text:${[s.font, s.size, s.style, s.align].filter((v) => v !== undefined).join("_")}:${t}`,
      );

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

const shuffled = <T>(items: T[]) =>
  fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });

/** A layer block with its directives in a random order between the source and fl_layer_apply. */
const writtenLayer = (l: Layer): fc.Arbitrary<string[]> => {
  const directives = LAYER_KEYS.filter((key) => l[key] !== undefined).flatMap((key) =>
    listOf(l[key]).map((value) => (key === "type" ? `l_type:${String(value)}` : `${key}_${String(value)}`)),
  );
  return fc
    .tuple(sourceDirective(l.source), shuffled(directives))
    .map(([opener, rest]) => [opener, ...rest, "fl_layer_apply"]);
};

/**
 * A step written as a string: its base directives (one `e_` per effect) in a random order, with
 * its layer blocks, in order, anywhere among them (tokens after a block still act on the base).
 */
export const writeStep = (s: TransformStep): fc.Arbitrary<string> => {
  const base = TRANSFORM_KEYS.filter((key) => s[key] !== undefined).flatMap((key) =>
    (key === "e" ? listOf(s[key]) : [s[key]]).map((value) => `${key}_${formatValue(value)}`),
  );
  const layers = s.layers ?? [];
  return fc
    .tuple(
      shuffled(base),
      fc.tuple(...layers.map(writtenLayer)),
      fc.array(fc.nat(), { minLength: layers.length, maxLength: layers.length }),
    )
    .map(([directives, blocks, positions]) => {
      // Block b goes before the base directive at slots[b] (or at the end); blocks keep their order.
      const slots = positions.map((n) => n % (directives.length + 1)).sort((a, b) => a - b);
      const out: string[] = [];
      for (let index = 0; index <= directives.length; index++) {
        blocks.forEach((block, b) => {
          if (slots[b] === index) out.push(...block);
        });
        const directive = directives[index];
        if (directive !== undefined) out.push(directive);
      }
      return out.join(",");
    });
};

export const nonEmptyStep = fc
  .oneof(step, namedStep)
  .filter((s) => Object.values(s).some((value) => value !== undefined));

export const writtenStep = nonEmptyStep.chain((s) => writeStep(s).map((text) => ({ model: s, text })));

export const written = fc
  .array(writtenStep, { minLength: 1, maxLength: 6 })
  .filter((steps) => readStepCount(steps.map((s) => s.model)) <= 10)
  .map((steps) => ({
    model: steps.map((s) => s.model),
    text: steps.map((s) => s.text).join("/"),
  }));
