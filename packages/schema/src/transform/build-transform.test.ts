import { describe, expect, it } from "vitest";
import { buildTransform } from "./build-transform.js";
import { safeParseTransform } from "./parse-transform.js";
import { TransformParseError } from "./transform-parse-error.js";
import type { TransformStep } from "./transform-step.js";

function errorOf(build: () => unknown): TransformParseError {
  try {
    build();
  } catch (error) {
    if (error instanceof TransformParseError) return error;
    throw error;
  }
  throw new Error("expected the builder to throw");
}

describe("buildTransform", () => {
  it("writes the canonical string of one step", () => {
    expect(buildTransform({ w: 300, h: 300, c: "fill", f: "webp" })).toBe("w_300,h_300,c_fill,f_webp");
    expect(buildTransform({ f: "webp", h: 300, w: 300 })).toBe("w_300,h_300,c_fill,f_webp");
    expect(buildTransform({ w: 300, c: "limit", q: "auto" })).toBe("w_300,c_limit,q_auto");
  });

  it("writes steps in order", () => {
    expect(buildTransform([{ w: 800 }, { e: "grayscale" }])).toBe("w_800/e_grayscale");
    expect(buildTransform([{ e: "blur:20" }, { w: 800, ar: { w: 4, h: 3 } }])).toBe("e_blur:20/w_800,ar_4:3");
  });

  it("normalises like the parser", () => {
    expect(buildTransform({ f: "jpeg", r: -90, bg: "grey", br: 0, e: "brightness:0" })).toBe(
      "f_jpg,r_270,bg_gray",
    );
    expect(buildTransform({ w: 100, ar: { w: 1.5, h: 1 } })).toBe("w_100,ar_3:2");
  });

  it("ignores keys set to undefined", () => {
    expect(buildTransform({ w: 100, h: undefined, e: undefined })).toBe("w_100");
  });

  it("writes a transformation that does nothing as the empty string", () => {
    expect(buildTransform({})).toBe("");
    expect(buildTransform([])).toBe("");
    expect(buildTransform([{ r: 360 }, {}])).toBe("");
  });

  it.each<[TransformStep | TransformStep[], string]>([
    [{ q: 200 }, "q_200: quality must be 1..100"],
    [{ w: 1.5 }, "w_1.5: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    [{ w: 0 }, "w_0: width must be 1..8192"],
    [{ w: 8193 }, "w_8193: width must be 1..8192"],
    [{ w: Number.NaN }, "w_NaN: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    [
      { w: Number.POSITIVE_INFINITY },
      "w_Infinity: width must be an integer 1..8192 or a fraction 0.01..0.99",
    ],
    [{ w: 1e21 }, "w_1e+21: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    [{ r: 36001 }, "r_36001: rotation must be -36000..36000 degrees"],
    [{ br: -1 }, "br_-1: corner radius must be 0..8192"],
    [{ ar: { w: 16, h: 9 } }, "ar_16:9: aspect ratio needs w or h in the same step"],
    [
      { w: 5, ar: { w: 0, h: 9 } },
      "ar_0:9: aspect ratio terms must be 0.01..9999.99 with at most 2 decimals",
    ],
    [
      { w: 5, ar: { w: 1 / 3, h: 1 } },
      "ar_0.3333333333333333:1: aspect ratio terms must be 0.01..9999.99 with at most 2 decimals",
    ],
    [
      { bg: "#ffffff" },
      "bg_#ffffff: background must be a 6-digit hex colour or one of black, silver, gray, white, maroon, red, purple, fuchsia, green, lime, olive, yellow, navy, blue, teal, aqua, orange, grey, cyan, magenta, transparent",
    ],
    [{ e: "blur:0" }, "e_blur:0: blur must be 0.3..1000"],
    [{ e: "sharpen:1.5" }, "e_sharpen:1.5: sharpen must be an integer"],
    [[{ w: 100 }, { q: 0 }], "q_0: quality must be 1..100"],
  ])("rejects %j with %j", (steps, message) => {
    const error = errorOf(() => buildTransform(steps));
    expect(error.message).toBe(message);
    expect(`${error.directive}: ${error.reason}`).toBe(message);
  });

  it("gives the parser's error for the same directive", () => {
    const pairs: [TransformStep, string][] = [
      [{ q: 200 }, "q_200"],
      [{ w: 1.5 }, "w_1.5"],
      [{ c: "stretch" as "fill" }, "c_stretch"],
      [{ f: "bmp" as "png" }, "f_bmp"],
      [{ e: "sepia" as "invert" }, "e_sepia"],
      [{ ar: { w: 16, h: 9 } }, "ar_16:9"],
    ];
    for (const [step, text] of pairs) {
      const parsed = safeParseTransform(text);
      expect(parsed.success).toBe(false);
      if (parsed.success) continue;
      expect(errorOf(() => buildTransform(step)).message).toBe(parsed.error.message);
    }
  });

  it("rejects keys outside the model", () => {
    const unknown = (step: object) => errorOf(() => buildTransform(step as TransformStep)).message;
    expect(unknown({ x: 1 })).toBe("x_1: unknown key x");
    expect(unknown({ w_x: 1 })).toBe("w_x_1: unknown key w_x");
    expect(unknown(JSON.parse('{"__proto__": 1}'))).toBe("__proto___1: unknown key __proto__");
    expect(unknown({ constructor: 1 })).toBe("constructor_1: unknown key constructor");
  });

  it("cannot be made to write extra directives or steps through a value", () => {
    const smuggle = (step: object) => errorOf(() => buildTransform(step as TransformStep)).message;
    expect(smuggle({ f: "webp,w_5" })).toBe(
      "f_webp,w_5: format must be one of jpg, jpeg, png, webp, avif, gif, tiff, auto",
    );
    expect(smuggle({ bg: "white/w_5" })).toMatch(/^bg_white\/w_5: background must be/);
    expect(smuggle({ e: "blur:5,q_1" })).toBe("e_blur:5,q_1: blur must be a number with at most 2 decimals");
    expect(smuggle({ w: 5, ar: { w: "1/2", h: 1 } })).toBe(
      "ar_1/2:1: aspect ratio must be W:H with two positive numbers",
    );
  });

  it("rejects more than 10 steps and steps that are not objects", () => {
    const steps = Array.from({ length: 11 }, () => ({ w: 1 }));
    expect(errorOf(() => buildTransform(steps)).message).toBe("transform has more than 10 steps");
    expect(buildTransform(steps.slice(0, 10))).toBe(Array.from({ length: 10 }, () => "w_1").join("/"));
    expect(errorOf(() => buildTransform([null as unknown as TransformStep])).message).toBe(
      "step 1 must be an object",
    );
  });
});
