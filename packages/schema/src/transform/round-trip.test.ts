import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTransform } from "./build-transform.js";
import { canonicalizeTransform } from "./canonical-transform.js";
import { normalizeTransform } from "./normalize-transform.js";
import { parseTransform, safeParseTransform } from "./parse-transform.js";
import { nonEmptyStep, transformation, writeStep, written } from "./transform-arbitraries.test-support.js";

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

  it("the order of directives within a step does not matter, except among layer blocks", () => {
    const twoWritings = nonEmptyStep.chain((s) => fc.tuple(writeStep(s), writeStep(s)));
    fc.assert(
      fc.property(twoWritings, ([one, other]) => {
        expect(canonicalizeTransform(one)).toBe(canonicalizeTransform(other));
      }),
    );
  });

  it("never throws anything but a TransformParseError, whatever the input", () => {
    const alphabet = [..."whacpfqrlibget_,/:.-0123456789xAF %zdosynm"];
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
    // 2,000 runs, some of long layered strings, on a shared CI core: a generous time budget.
  }, 60_000);
});
