import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildTransform } from "./build-transform.js";
import { canonicalizeTransform } from "./canonical-transform.js";
import type { Layer } from "./layer.js";
import { MAX_LAYERS, MAX_TEXT_LENGTH, MAX_TRANSFORM_LENGTH, MAX_TRANSFORM_STEPS } from "./limits.js";
import { parseTransform, safeParseTransform } from "./parse-transform.js";
import { step } from "./transform-arbitraries.test-support.js";
import { TransformParseError } from "./transform-parse-error.js";
import type { TransformStep } from "./transform-step.js";

describe("limits", () => {
  // The longest value of every key: ar with one side (longer than w and h together), the
  // longest ar (lowest terms do not fit in 1..9999, so hundredths are kept), the longest name
  // of each list, and the longest effect.
  const longest: TransformStep = {
    w: 8192,
    ar: { w: 9999.99, h: 9999.98 },
    c: "limit",
    p: "attention",
    f: "avif",
    q: "auto",
    r: 359,
    flip: "hv",
    bg: "transparent",
    br: 8192,
    e: "brightness:-99",
  };

  it("lets the parser read the longest canonical transformation without layers", () => {
    const step = buildTransform(longest);
    expect(step).toBe(
      "w_8192,ar_9999.99:9999.98,c_limit,p_attention,f_avif,q_auto,r_359,flip_hv,bg_transparent,br_8192,e_brightness:-99",
    );
    const transform = buildTransform(Array.from({ length: MAX_TRANSFORM_STEPS }, () => longest));
    expect(transform.length).toBeLessThanOrEqual(MAX_TRANSFORM_LENGTH);
    expect(buildTransform(parseTransform(transform))).toBe(transform);
  });

  // A character of 4 UTF-8 bytes is 12 characters encoded: the longest text there is.
  const longestText: Layer = {
    source: {
      kind: "text",
      font: "helvetica",
      size: 512,
      style: "bold_italic",
      align: "center",
      text: "😀".repeat(MAX_TEXT_LENGTH),
    },
    lw: 8192,
    lh: 8192,
    lx: -8192,
    ly: -8192,
    x: -8192,
    y: -8192,
    tp: "north-west",
    ip: "south-east",
    co: "ffffff",
    o: 99,
    bm: "difference",
    e: ["unsharp_mask:2000", "brightness:-99"],
  };

  it("writes the longest text layer within the limit, and the parser reads it back", () => {
    const built = buildTransform({ layers: [longestText] });
    expect(built.length).toBeGreaterThan(MAX_TEXT_LENGTH * 12);
    expect(built.length).toBeLessThanOrEqual(MAX_TRANSFORM_LENGTH);
    expect(parseTransform(built)).toEqual([{ layers: [longestText] }]);
  });

  it("refuses, with the parser's message, a transformation whose canonical string the parser would refuse", () => {
    const tooLong = { layers: Array.from({ length: MAX_LAYERS }, () => longestText) };
    expect(() => buildTransform(tooLong)).toThrow(
      new TransformParseError(`transform is longer than ${MAX_TRANSFORM_LENGTH} characters`),
    );
    // A raw `_` is canonically `%5F`: this string is short enough to parse, but its canonical
    // form is not, so canonicalising it is refused rather than giving a string no parser reads.
    const block = `l_text:arial_12:${"_".repeat(MAX_TEXT_LENGTH)},fl_layer_apply`;
    const step = Array.from({ length: MAX_LAYERS }, () => block).join(",");
    const input = Array.from({ length: 4 }, () => step).join("/");
    expect(input.length).toBeLessThanOrEqual(MAX_TRANSFORM_LENGTH);
    expect(safeParseTransform(input).success).toBe(true);
    expect(() => canonicalizeTransform(input)).toThrow(
      `transform is longer than ${MAX_TRANSFORM_LENGTH} characters`,
    );
  });

  it("whatever the builder writes, the parser accepts", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: MAX_TRANSFORM_STEPS }), (steps) => {
        let built: string;
        try {
          built = buildTransform(steps);
        } catch (error) {
          // The only refusal of a valid model: a canonical string longer than the parser reads.
          expect(error).toEqual(
            new TransformParseError(`transform is longer than ${MAX_TRANSFORM_LENGTH} characters`),
          );
          return;
        }
        if (built !== "") expect(buildTransform(parseTransform(built))).toBe(built);
      }),
      { numRuns: 50 },
    );
  });
});
