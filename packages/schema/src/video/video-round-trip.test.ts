import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalVideoTransform } from "./canonical-video-transform.js";
import { isVideoStep } from "./is-video-step.js";
import { isVideoTransform, parseVideoTransform } from "./parse-video-transform.js";
import {
  normalizeVideoTransform,
  videoTransform,
  writtenVideoTransform,
} from "./video-arbitraries.test-support.js";

describe("video round trips", () => {
  it("parse(canonical(t)) is the canonical model of t", () => {
    fc.assert(
      fc.property(videoTransform, (t) => {
        const canonical = canonicalVideoTransform(t);
        const model = normalizeVideoTransform(t);
        if (canonical === "") expect(model).toEqual({});
        else expect(parseVideoTransform(canonical)).toEqual(model);
      }),
    );
  });

  it("every spelling parses to the model it was written from, and canonicalises to one string", () => {
    fc.assert(
      fc.property(writtenVideoTransform, ({ model, text }) => {
        const parsed = parseVideoTransform(text);
        expect(parsed).toEqual(normalizeVideoTransform(model));
        expect(canonicalVideoTransform(parsed)).toBe(canonicalVideoTransform(model));
      }),
    );
  });

  it("canonicalisation is idempotent and keeps the canonical key order", () => {
    const order = ["thumb", "so", "eo", "d", "w", "h", "ar", "cm", "bg", "flip", "r", "f"];
    fc.assert(
      fc.property(videoTransform, (t) => {
        const canonical = canonicalVideoTransform(t);
        fc.pre(canonical !== "");
        expect(canonicalVideoTransform(parseVideoTransform(canonical))).toBe(canonical);
        const keys = canonical.split(",").map((directive) => order.indexOf(directive.split("_")[0] ?? ""));
        expect(keys).toEqual([...keys].sort((a, b) => a - b));
        expect(isVideoStep(canonical)).toBe(true);
      }),
    );
  });

  it("never throws anything but a TransformParseError, whatever the input", () => {
    const alphabet = [..."thumbarsoedwhcpxflgiv_,/:.-0123456789AFzq "];
    const noise = fc.oneof(
      fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 60 }),
      fc.string({ maxLength: 60 }),
      writtenVideoTransform.map(({ text }) => text),
    );
    fc.assert(
      fc.property(noise, (input) => {
        if (!isVideoTransform(input)) return;
        const canonical = canonicalVideoTransform(parseVideoTransform(input));
        if (canonical !== "") expect(canonicalVideoTransform(parseVideoTransform(canonical))).toBe(canonical);
      }),
      { numRuns: 2000 },
    );
  }, 60_000);

  it("an invalid model is refused by the canonical writer with the parser's message", () => {
    expect(() => canonicalVideoTransform({ so: 1.2345 })).toThrow(/^so_1\.2345: start offset/);
    expect(() => canonicalVideoTransform({ eo: 5, d: 2 })).toThrow("d_2: use eo_ or d_, not both");
    expect(() => canonicalVideoTransform({ r: 45 as 90 })).toThrow(/^r_45: rotation/);
    expect(() => canonicalVideoTransform({ w: Number.NaN })).toThrow(/^w_NaN: width/);
    expect(canonicalVideoTransform({})).toBe("");
    expect(canonicalVideoTransform({ so: 0 })).toBe("");
    expect(
      canonicalVideoTransform({
        w: 401,
        h: 300,
        bg: { kind: "colour", hex: "FFFFFF" },
        f: "gif",
        so: 1.5,
        eo: 3,
      }),
    ).toBe("so_1.5,eo_3,w_402,h_300,bg_white,f_gif");
    expect(
      canonicalVideoTransform({ ar: { w: 32, h: 18 }, w: 400, bg: { kind: "blurred", strength: 20 } }),
    ).toBe("w_400,ar_16:9,bg_blurred");
  });
});
