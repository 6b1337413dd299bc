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
  // any turn, as the hosted documentation reads r_450 (E/rotate.mdx), within -36000..36000
  ["r_450", "r_90"],
  ["r_-450", "r_270"],
  ["r_720,w_5", "w_5"],
  ["r_36000,w_5", "w_5"],
  ["r_-35999", "r_1"],
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
  // issue #32: new keys after the old ones, in TRANSFORM_KEYS order
  [
    "e_hue:30,fl_upscale,o_50,br_5,dpr_2,z_1.5,fo_face,ps_10,20,p_face,w_0.5",
    "w_0.5,p_face,ps_10,20,fo_face,z_1.5,dpr_2,br_5,o_50,fl_upscale,e_hue:30",
  ],
  ["w_auto,q_auto:best,f_tiff,r_portrait", "w_auto,f_tiff,q_auto:best,r_portrait"],
  // SDK long gravity names are the short ones
  ["w_5,h_5,p_top-left", "w_5,h_5,c_fill,p_tl"],
  ["w_5,h_5,p_center", "w_5,h_5,c_fill,p_c"],
  // decimals as JavaScript writes them; defaults that do nothing dropped
  ["z_2.0,w_5", "w_5,z_2"],
  ["w_0.50", "w_0.5"],
  ["z_1,dpr_1.00,o_100,w_5", "w_5"],
  ["e_blur:2.50", "e_blur:2.5"],
  // ar with both w and h is ignored (the hosted rule), so dropped
  ["w_360,h_360,c_crop,ar_1:1,br_180", "w_360,h_360,c_crop,br_180"],
  // several effects in the hosted order, then the others alphabetically; no-ops dropped
  ["e_brightness:15,e_contrast:20,e_saturation:10", "e_saturation:10,e_contrast:20,e_brightness:15"],
  [
    "e_grayscale,e_sharpen,e_improve:indoor,e_vignette:5,e_blur:1",
    "e_improve:indoor,e_sharpen,e_grayscale,e_blur:1,e_vignette:5",
  ],
  ["e_hue:0,e_exposure:0,e_invert", "e_invert"],
  ["e_gamma:0,w_5", "w_5"],
  // layers: placements long, defaults dropped, colours lower case, effects sorted, text encoded
  [
    "l_text:arial_32_bold_center:Sale,co_FF0000,fl_layer_apply,w_400,h_400",
    "w_400,h_400,c_fill,l_text:arial_32_bold_center:Sale,co_ff0000,fl_layer_apply",
  ],
  [
    "l_text:arial_100_bold_center:LIMITED%20EDITION,co_rgb:FFD700,tp_s,fl_layer_apply",
    "l_text:arial_100_bold_center:LIMITED%20EDITION,tp_south,co_ffd700,fl_layer_apply",
  ],
  [
    "c_crop,w_420,h_420,p_c,ps_center,l_image:logo.svg,l_type:overlay,lw_100,lh_200,ip_nw,o_100,fl_layer_apply",
    "w_420,h_420,c_crop,p_c,ps_center,l_image:logo.svg,lw_100,lh_200,ip_north-west,fl_layer_apply",
  ],
  ["l_image:a.png,tp_center,ip_c,x_0,y_0,bm_normal,fl_layer_apply", "l_image:a.png,fl_layer_apply"],
  ["l_image:a.png,tp_ne,ip_north-east,fl_layer_apply", "l_image:a.png,tp_north-east,fl_layer_apply"],
  [
    "l_image:a.png,e_contrast:5,e_brightness:0,e_improve,fl_layer_apply",
    "l_image:a.png,e_improve,e_contrast:5,fl_layer_apply",
  ],
  [
    "l_image:my_logo.png,l_type:underlay,fl_layer_apply",
    "l_image:my%5Flogo.png,l_type:underlay,fl_layer_apply",
  ],
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
    // one URL, one cache key: effects in any order, tokens on either side of a layer block
    [
      "w_300,e_contrast:20,e_brightness:15,l_text:arial_24:Hi,tp_ne,o_50,fl_layer_apply,h_200",
      "e_brightness:15,h_200,l_text:arial_24:Hi,o_50,tp_north-east,fl_layer_apply,e_contrast:20,w_300",
      "l_text:arial_24:%48%69,tp_north-east,o_50,fl_layer_apply,c_fill,h_200,w_300,e_brightness:15,e_contrast:20",
    ],
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
    // Layer blocks keep their written order: the second is drawn over the first.
    expect(canonicalizeTransform("l_image:a.png,fl_layer_apply,l_image:b.png,fl_layer_apply")).not.toBe(
      canonicalizeTransform("l_image:b.png,fl_layer_apply,l_image:a.png,fl_layer_apply"),
    );
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
