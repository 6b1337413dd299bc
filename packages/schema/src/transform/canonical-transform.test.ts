import { describe, expect, it } from "vitest";
import { canonicalizeTransform, canonicalTransform } from "./canonical-transform.js";
import { normalizeTransform } from "./normalize-transform.js";

const CASES: [input: string, canonical: string][] = [
  // key order
  ["h_300,w_300,c_fit", "w_300,h_300,c_fit"],
  [
    "e_invert,br_max,bg_red,flip_h,r_90,q_80,f_png,p_t,c_crop,h_5,w_5",
    "w_5,h_5,c_crop,p_t,f_png,q_80,r_90,flip_h,bg_red,br_max,e_invert",
  ],
  ["ar_16:9,w_100", "w_100,ar_16:9"],
  // c: fill is the default with w and h, and is written out
  ["w_300,h_300", "w_300,h_300,c_fill"],
  ["c_fill,h_300,w_300", "w_300,h_300,c_fill"],
  ["w_300,h_300,c_fill,f_webp", "w_300,h_300,c_fill,f_webp"],
  ["w_300", "w_300"],
  ["w_300,c_fill", "w_300,c_fill"],
  ["w_300,ar_1:1", "w_300,ar_1:1"],
  ["c_fit", "c_fit"],
  // p as given
  ["w_1,h_1,p_c", "w_1,h_1,c_fill,p_c"],
  ["w_1,c_scale,p_entropy", "w_1,c_scale,p_entropy"],
  // f
  ["f_jpeg", "f_jpg"],
  ["f_jpg", "f_jpg"],
  ["f_auto", "f_auto"],
  // q
  ["q_auto", "q_auto"],
  ["q_100", "q_100"],
  // r into 0..359, r_0 dropped
  ["r_90", "r_90"],
  ["r_-90", "r_270"],
  ["r_-270", "r_90"],
  ["r_-1", "r_359"],
  ["r_0,w_5", "w_5"],
  ["r_360,w_5", "w_5"],
  ["r_-360,w_5", "w_5"],
  // bg
  ["bg_grey", "bg_gray"],
  ["bg_cyan", "bg_aqua"],
  ["bg_magenta", "bg_fuchsia"],
  ["bg_FFFFFF", "bg_white"],
  ["bg_ff0000", "bg_red"],
  ["bg_FF8000", "bg_ff8000"],
  ["bg_transparent", "bg_transparent"],
  // br
  ["br_0,w_5", "w_5"],
  ["br_max", "br_max"],
  ["br_10", "br_10"],
  // e
  ["e_brightness:0,w_5", "w_5"],
  ["e_contrast:0,w_5", "w_5"],
  ["e_saturation:0,w_5", "w_5"],
  ["e_brightness:-5", "e_brightness:-5"],
  ["e_sharpen", "e_sharpen"],
  ["e_sharpen:50", "e_sharpen:50"],
  ["e_blur:1", "e_blur:1"],
  // ar in lowest terms
  ["w_100,ar_32:18", "w_100,ar_16:9"],
  ["h_5,ar_1.5:1", "h_5,ar_3:2"],
  ["w_5,ar_1.91:1", "w_5,ar_191:100"],
  ["w_5,ar_16.00:9.0", "w_5,ar_16:9"],
  ["w_5,ar_0.5:0.5", "w_5,ar_1:1"],
  ["w_5,ar_9999.99:0.01", "w_5,ar_9999.99:0.01"],
  ["w_5,ar_0.01:9999.99", "w_5,ar_0.01:9999.99"],
  ["w_5,ar_9999:9998", "w_5,ar_9999:9998"],
  ["w_5,ar_99.99:1", "w_5,ar_9999:100"],
  ["w_5,ar_999.99:10", "w_5,ar_999.99:10"],
  // steps: order kept, empty ones removed
  ["e_grayscale/w_100", "e_grayscale/w_100"],
  ["w_100/r_0/h_50", "w_100/h_50"],
  ["r_0/w_100", "w_100"],
  ["w_100/w_100", "w_100/w_100"],
  // a transformation that does nothing
  ["r_0", ""],
  ["r_0/br_0,e_contrast:0", ""],
];

describe("canonicalizeTransform", () => {
  it.each(CASES)("%j → %j", (input, canonical) => {
    expect(canonicalizeTransform(input)).toBe(canonical);
  });

  it.each(CASES.filter(([, canonical]) => canonical !== ""))("is idempotent on %j", (input) => {
    const once = canonicalizeTransform(input);
    expect(canonicalizeTransform(once)).toBe(once);
  });

  it("throws the parser's error", () => {
    expect(() => canonicalizeTransform("w_1,q_200")).toThrow("q_200: quality must be 1..100");
  });

  const EQUAL: string[][] = [
    ["w_300,h_300", "h_300,w_300", "w_300,h_300,c_fill", "c_fill,w_300,h_300", "h_300,c_fill,w_300,r_0,br_0"],
    ["f_jpeg,q_80", "q_80,f_jpg", "f_jpg,q_80,e_brightness:0"],
    ["r_-90,bg_grey", "bg_gray,r_270", "r_270,bg_808080", "bg_808080,r_-90"],
    ["w_640,ar_16:9", "ar_32:18,w_640", "w_640,ar_16.0:9.00", "w_640,ar_160:90"],
    ["h_10,ar_1.5:1", "h_10,ar_3:2", "ar_150:100,h_10", "h_10,ar_0.75:0.5"],
    ["w_100/e_grayscale", "w_100/e_grayscale,r_360", "r_0/w_100/e_grayscale"],
  ];

  it.each(EQUAL)("writes equal transformations once: %j", (...group) => {
    const canonicals = new Set(group.map(canonicalizeTransform));
    expect(canonicals.size).toBe(1);
  });

  it("keeps different transformations apart", () => {
    const canonicals = EQUAL.map((group) => canonicalizeTransform(group[0] ?? ""));
    expect(new Set(canonicals).size).toBe(EQUAL.length);
    expect(canonicalizeTransform("e_grayscale/w_100")).not.toBe(canonicalizeTransform("w_100/e_grayscale"));
    expect(canonicalizeTransform("q_auto")).not.toBe(canonicalizeTransform("q_80"));
    expect(canonicalizeTransform("w_300,c_fill")).not.toBe(canonicalizeTransform("w_300"));
  });
});

describe("canonicalTransform", () => {
  it("writes a typed transformation canonically", () => {
    expect(canonicalTransform([{ f: "jpeg", h: 300, w: 300 }, { r: -90 }])).toBe(
      "w_300,h_300,c_fill,f_jpg/r_270",
    );
  });

  it("writes a transformation that does nothing as the empty string", () => {
    expect(canonicalTransform([])).toBe("");
    expect(canonicalTransform([{}, { r: 0 }])).toBe("");
  });

  it("validates by the parser's rules", () => {
    expect(() => canonicalTransform([{ w: 100 }, { q: 200 }])).toThrow("q_200: quality must be 1..100");
  });
});

describe("normalizeTransform", () => {
  it("gives the canonical model", () => {
    expect(
      normalizeTransform([
        { w: 100, h: 50, f: "jpeg", bg: "FFFFFF", r: 450 - 360 },
        { br: 0 },
        { w: 5, ar: { w: 32, h: 18 } },
      ]),
    ).toEqual([
      { w: 100, h: 50, c: "fill", f: "jpg", bg: "white", r: 90 },
      { w: 5, ar: { w: 16, h: 9 } },
    ]);
  });

  it("drops keys set to undefined", () => {
    expect(normalizeTransform([{ w: 100, h: undefined }])).toEqual([{ w: 100 }]);
  });

  it("does not change its argument", () => {
    const steps = [{ f: "jpeg" as const, r: -90 }];
    normalizeTransform(steps);
    expect(steps).toEqual([{ f: "jpeg", r: -90 }]);
  });
});
