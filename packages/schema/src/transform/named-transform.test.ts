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

  it.each(["t_card,w_100", "w_100,t_card"])("refuses %j: a named step stands alone", (input) => {
    expect(messageOf(input)).toBe(
      "t_card: a named transform stands alone in its step (chain it with /, e.g. t_card/e_grayscale)",
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

  it("builds a typed named step, and refuses one that is not alone", () => {
    expect(buildTransform({ t: "card" })).toBe("t_card");
    expect(buildTransform([{ t: "card" }, { w: 200 }])).toBe("t_card/w_200");
    expect(() => buildTransform({ t: "Card" })).toThrow(TransformParseError);
    expect(() => buildTransform({ t: "card", w: 100 })).toThrow(/stands alone in its step/);
  });

  it("reads a named step as a transformation step, so names cannot shadow it", () => {
    expect(isTransformStep("t_card")).toBe(true);
    expect(isTransformStep("t_my-photos")).toBe(true);
    expect(isTransformStep("t_Photos")).toBe(false);
    expect(isTransformStep("t_card.jpg")).toBe(false);
    expect(isTransformStep("t_card,w_100")).toBe(false);
  });

  it("tells named steps from the others", () => {
    const [named, plain] = parseTransform("t_card/w_100");
    expect(isNamedStep(named!)).toBe(true);
    expect(isNamedStep(plain!)).toBe(false);
  });
});
