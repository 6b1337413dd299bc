import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTransform } from "./build-transform.js";
import { canonicalizeTransform } from "./canonical-transform.js";
import { COLOUR_NAMES } from "./colour.js";
import type { Effect } from "./effect.js";
import { formatValue } from "./format-transform.js";
import { normalizeTransform } from "./normalize-transform.js";
import { parseTransform, safeParseTransform } from "./parse-transform.js";
import {
  CROP_MODES,
  FLIPS,
  GRAVITIES,
  IMAGE_FORMATS,
  TRANSFORM_KEYS,
  type Transformation,
  type TransformStep,
} from "./transform-step.js";

const amount = (min: number, max: number) => fc.integer({ min, max });

const effect: fc.Arbitrary<Effect> = fc.oneof(
  fc.constantFrom<Effect>("grayscale", "invert", "sharpen"),
  amount(1, 100).map((n): Effect => `blur:${n}`),
  amount(1, 100).map((n): Effect => `sharpen:${n}`),
  fc
    .tuple(fc.constantFrom("brightness", "contrast", "saturation"), amount(-100, 100))
    .map(([name, n]): Effect => `${name}:${n}`),
);

// Hundredths, as the parser reads them; small ratios often reduce, large ones often do not.
const ratioTerm = fc
  .oneof(
    amount(1, 999_999),
    amount(1, 100).map((n) => n * 100),
  )
  .map((n) => n / 100);

/** Any valid step, in every spelling the parser accepts (jpeg, FFFFFF, grey, r_-90, 32:18...). */
const step: fc.Arbitrary<TransformStep> = fc
  .record(
    {
      w: amount(1, 8192),
      h: amount(1, 8192),
      ar: fc.record({ w: ratioTerm, h: ratioTerm }),
      c: fc.constantFrom(...CROP_MODES),
      p: fc.constantFrom(...GRAVITIES),
      f: fc.constantFrom(...IMAGE_FORMATS),
      q: fc.oneof(amount(1, 100), fc.constant("auto" as const)),
      r: amount(-360, 360),
      flip: fc.constantFrom(...FLIPS),
      bg: fc.oneof(fc.constantFrom(...COLOUR_NAMES), fc.stringMatching(/^[0-9a-fA-F]{6}$/)),
      br: fc.oneof(amount(0, 8192), fc.constant("max" as const)),
      e: effect,
    },
    { requiredKeys: [] },
  )
  .map((s) => {
    // ar needs exactly one of w and h.
    if (s.ar === undefined) return s;
    if (s.w !== undefined && s.h !== undefined) return { ...s, h: undefined };
    if (s.w === undefined && s.h === undefined) return { ...s, w: 640 };
    return s;
  });

/** A named step (`t_card`), always alone in its step. */
const namedStep: fc.Arbitrary<TransformStep> = fc
  .stringMatching(/^[a-z0-9_-]{1,64}$/)
  .map((name) => ({ t: name }));

const transformation: fc.Arbitrary<Transformation> = fc.array(fc.oneof(step, namedStep), { maxLength: 10 });

/** A step written as a string with its directives in a random order. */
const writtenStep = fc
  .oneof(step, namedStep)
  .filter((s) => Object.values(s).some((value) => value !== undefined))
  .chain((s) => {
    const directives = TRANSFORM_KEYS.filter((key) => s[key] !== undefined).map(
      (key) => `${key}_${formatValue(s[key])}`,
    );
    return fc
      .shuffledSubarray(directives, { minLength: directives.length, maxLength: directives.length })
      .map((shuffled) => ({ model: s, text: shuffled.join(",") }));
  });

const written = fc.array(writtenStep, { minLength: 1, maxLength: 10 }).map((steps) => ({
  model: steps.map((s) => s.model),
  text: steps.map((s) => s.text).join("/"),
}));

describe("round trips", () => {
  it("parse(build(x)) is the canonical model of x", () => {
    fc.assert(
      fc.property(transformation, (x) => {
        const built = buildTransform(x);
        const canonical = normalizeTransform(x);
        if (built === "") expect(canonical).toEqual([]);
        else expect(parseTransform(built)).toEqual(canonical);
      }),
    );
  });

  it("build(parse(s)) is canonicalize(s), and the same as building the model s was written from", () => {
    fc.assert(
      fc.property(written, ({ model, text }) => {
        const canonical = canonicalizeTransform(text);
        expect(buildTransform(parseTransform(text))).toBe(canonical);
        expect(buildTransform(model)).toBe(canonical);
      }),
    );
  });

  it("canonicalisation is idempotent", () => {
    fc.assert(
      fc.property(written, ({ text }) => {
        const canonical = canonicalizeTransform(text);
        fc.pre(canonical !== "");
        expect(canonicalizeTransform(canonical)).toBe(canonical);
        expect(buildTransform(parseTransform(canonical))).toBe(canonical);
      }),
    );
  });

  it("the order of directives within a step does not matter", () => {
    const twoOrders = step
      .map((s) =>
        TRANSFORM_KEYS.filter((key) => s[key] !== undefined).map((key) => `${key}_${formatValue(s[key])}`),
      )
      .filter((directives) => directives.length > 0)
      .chain((directives) => {
        const shuffle = fc.shuffledSubarray(directives, {
          minLength: directives.length,
          maxLength: directives.length,
        });
        return fc.tuple(shuffle, shuffle);
      });
    fc.assert(
      fc.property(twoOrders, ([one, other]) => {
        expect(canonicalizeTransform(one.join(","))).toBe(canonicalizeTransform(other.join(",")));
      }),
    );
  });

  it("never throws anything but a TransformParseError, whatever the input", () => {
    const alphabet = [..."whacpfqrlibget_,/:.-0123456789xAF "];
    const noise = fc.oneof(
      fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 60 }),
      fc.string({ maxLength: 60 }),
      written.map(({ text }) => text),
    );
    fc.assert(
      fc.property(noise, (input) => {
        const result = safeParseTransform(input);
        if (!result.success) return;
        const canonical = canonicalizeTransform(input);
        if (canonical !== "") expect(canonicalizeTransform(canonical)).toBe(canonical);
      }),
      { numRuns: 2000 },
    );
  });
});
