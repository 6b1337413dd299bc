import { describe, expect, it } from "vitest";
import { buildTransform } from "./build-transform.js";
import { canonicalizeTransform } from "./canonical-transform.js";
import { isTransformStep } from "./is-transform-step.js";
import { isNamedStep, isNamedTransformName } from "./named-transform.js";
import { parseTransform, safeParseTransform } from "./parse-transform.js";
import { TransformParseError } from "./transform-parse-error.js";

function messageOf(input: string): string {
  const result = safeParseTransform(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return result.error.message;
}

describe("named transforms (t_<name>)", () => {
  it("parses a named step alone, and chained with other steps", () => {
    expect(parseTransform("t_card")).toEqual([{ t: "card" }]);
    expect(parseTransform("t_hero_2x")).toEqual([{ t: "hero_2x" }]);
    expect(parseTransform("t_og-image/e_grayscale")).toEqual([{ t: "og-image" }, { e: "grayscale" }]);
    expect(parseTransform("w_100/t_card")).toEqual([{ w: 100 }, { t: "card" }]);
  });

  it("accepts names of 1 to 64 of [a-z0-9_-]", () => {
    expect(parseTransform(`t_${"a".repeat(64)}`)).toEqual([{ t: "a".repeat(64) }]);
    expect(parseTransform("t_0")).toEqual([{ t: "0" }]);
    expect(isNamedTransformName("a-b_c9")).toBe(true);
  });

  it.each([
    ["t_", "t_: a transform name is 1 to 64 of a-z, 0-9, _ and -"],
    ["t_Card", "t_Card: a transform name is 1 to 64 of a-z, 0-9, _ and -"],
    ["t_card.jpg", "t_card.jpg: a transform name is 1 to 64 of a-z, 0-9, _ and -"],
    ["t_caf\u00e9", "t_caf\u00e9: a transform name is 1 to 64 of a-z, 0-9, _ and -"],
    [`t_${"a".repeat(65)}`, `t_${"a".repeat(65)}: a transform name is 1 to 64 of a-z, 0-9, _ and -`],
  ])("refuses the name in %j", (input, message) => {
    expect(messageOf(input)).toBe(message);
  });

  it.each([
    ["t_card,w_100", [{ t: "card" }, { w: 100 }]],
    ["w_100,t_card", [{ t: "card" }, { w: 100 }]],
    ["t_thumbnail-2,q_90", [{ t: "thumbnail-2" }, { q: 90 }]],
    ["t_thumbnail,e_blur:20", [{ t: "thumbnail" }, { e: "blur:20" }]],
    [
      "w_5/t_card,e_grayscale,e_invert/f_png",
      [{ w: 5 }, { t: "card" }, { e: ["grayscale", "invert"] }, { f: "png" }],
    ],
  ])("reads %j as the named transform, then the rest of its step as one more step", (input, steps) => {
    expect(parseTransform(input)).toEqual(steps);
  });

  it("canonicalises t_<name>,REST as t_<name>/REST: one meaning, one string and cache key", () => {
    expect(canonicalizeTransform("t_thumbnail-2,q_90")).toBe("t_thumbnail-2/q_90");
    expect(canonicalizeTransform("q_90,t_thumbnail-2")).toBe("t_thumbnail-2/q_90");
    expect(canonicalizeTransform("t_thumbnail-2/q_90")).toBe("t_thumbnail-2/q_90");
    expect(canonicalizeTransform("t_card,f_jpeg,h_5,w_5")).toBe("t_card/w_5,h_5,c_fill,f_jpg");
    // A rest that does nothing leaves the named step alone.
    expect(canonicalizeTransform("t_card,r_0")).toBe("t_card");
    // The rest keeps the step's rules: ar needs w or h in the rest itself.
    expect(messageOf("t_card,ar_16:9")).toBe("ar_16:9: aspect ratio needs w or h in the same step");
  });

  it("counts t_<name>,REST as two steps against the step limit", () => {
    expect(parseTransform(Array(5).fill("t_a,w_1").join("/"))).toHaveLength(10);
    expect(messageOf(Array(6).fill("t_a,w_1").join("/"))).toBe(
      "transform has more than 10 steps (t_<name> followed by directives is two steps)",
    );
  });

  it("refuses two names in one step", () => {
    expect(messageOf("t_card,t_other")).toBe("t_other: key t is repeated in the step");
  });

  it("canonicalises a named step as written, the steps around it as usual", () => {
    expect(canonicalizeTransform("t_card")).toBe("t_card");
    expect(canonicalizeTransform("t_card/f_jpeg,r_0")).toBe("t_card/f_jpg");
    expect(canonicalizeTransform("r_0/t_card")).toBe("t_card");
  });

  it("builds a typed named step, and one with other keys as the recipe then the rest", () => {
    expect(buildTransform({ t: "card" })).toBe("t_card");
    expect(buildTransform([{ t: "card" }, { w: 200 }])).toBe("t_card/w_200");
    expect(() => buildTransform({ t: "Card" })).toThrow(TransformParseError);
    expect(buildTransform({ t: "card", w: 100 })).toBe("t_card/w_100");
    expect(() => buildTransform(Array(6).fill({ t: "a", w: 1 }))).toThrow(/more than 10 steps/);
  });

  it("reads a named step as a transformation step, so names cannot shadow it", () => {
    expect(isTransformStep("t_card")).toBe(true);
    expect(isTransformStep("t_my-photos")).toBe(true);
    expect(isTransformStep("t_Photos")).toBe(false);
    expect(isTransformStep("t_card.jpg")).toBe(false);
    // t_card,w_100 reads as a transform (the recipe, then w_100), so no file may be named so.
    expect(isTransformStep("t_card,w_100")).toBe(true);
    expect(isTransformStep("t_card,e_blur:20")).toBe(true);
    expect(isTransformStep("t_card,t_other")).toBe(false);
  });

  it("tells named steps from the others", () => {
    const [named, plain] = parseTransform("t_card/w_100");
    expect(isNamedStep(named!)).toBe(true);
    expect(isNamedStep(plain!)).toBe(false);
  });
});
