import { describe, expect, it } from "vitest";
import { effectsOf, splitEffect } from "./effect.js";
import { parseTransform, safeParseTransform } from "./parse-transform.js";

const messageOf = (input: string): string => {
  const result = safeParseTransform(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return result.error.message;
};

describe("the keys issue #32 adds to a step", () => {
  it("reads sizes in pixels, as fractions of the source, and w_auto", () => {
    expect(parseTransform("w_0.5,h_0.75")).toEqual([{ w: 0.5, h: 0.75 }]);
    expect(parseTransform("w_0.01,h_0.99")).toEqual([{ w: 0.01, h: 0.99 }]);
    expect(parseTransform("w_1")).toEqual([{ w: 1 }]);
    expect(parseTransform("w_auto,c_fit")).toEqual([{ w: "auto", c: "fit" }]);
  });

  it.each([
    ["w_1.0", "w_1.0: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["w_1.5", "w_1.5: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["w_0.0", "w_0.0: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["w_0.001", "w_0.001: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["w_.5", "w_.5: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["h_auto", "h_auto: height must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["z_0.5", "z_0.5: zoom must be 1..5"],
    ["z_5.01", "z_5.01: zoom must be 1..5"],
    ["z_1.555", "z_1.555: zoom must be a number with at most 2 decimals"],
    ["dpr_0.09", "dpr_0.09: dpr must be 0.1..10"],
    ["dpr_11", "dpr_11: dpr must be 0.1..10"],
    ["o_101", "o_101: opacity must be 0..100"],
    ["fl_layer", "fl_layer: flag must be one of upscale (fl_layer_apply closes a layer)"],
    ["fo_car", "fo_car: focus must be one of face"],
    ["ps_10", "ps_10: a point needs x,y (ps_10,20)"],
    ["ps_10,w_5", "ps_10: a point needs x,y (ps_10,20)"],
    ["ps_10,-20", "ps_10: a point needs x,y (ps_10,20)"],
    ["ps_65536,1", "ps_65536,1: point coordinates must be 0..65535"],
    ["ps_middle", "ps_middle: position must be one of center, entropy, attention or a point x,y (0..65535)"],
    [
      "r_upright",
      "r_upright: rotation must be an integer number of degrees or one of auto, portrait, landscape",
    ],
    [
      "q_auto:great",
      "q_auto:great: quality must be an integer or one of auto, auto:best, auto:good, auto:eco, auto:low",
    ],
    ["w_5,w_auto", "w_auto: key w is repeated in the step"],
    ["fl_upscale,l_image:a.png,fl_layer_apply,fl_upscale", "fl_upscale: key fl is repeated in the step"],
  ])("refuses %j: %j", (input, message) => {
    expect(messageOf(input)).toBe(message);
  });

  it("reads z, dpr, o, fl_upscale, f_tiff, q presets and rotation modes", () => {
    expect(parseTransform("z_1.5,dpr_2.25,o_0,fl_upscale,f_tiff,q_auto:best,r_auto")).toEqual([
      { z: 1.5, dpr: 2.25, o: 0, fl: "upscale", f: "tiff", q: "auto:best", r: "auto" },
    ]);
    expect(parseTransform("z_2.0,r_portrait/r_landscape,q_auto:low")).toEqual([
      { z: 2, r: "portrait" },
      { r: "landscape", q: "auto:low" },
    ]);
  });

  it("reads ps as a strategy or a point across the comma, and fo and p_face", () => {
    expect(parseTransform("ps_10,20")).toEqual([{ ps: { x: 10, y: 20 } }]);
    expect(parseTransform("w_5,ps_0,0,h_5")).toEqual([{ w: 5, ps: { x: 0, y: 0 }, h: 5 }]);
    expect(parseTransform("ps_center,fo_face,p_face")).toEqual([{ ps: "center", fo: "face", p: "face" }]);
    expect(parseTransform("p_bottom-right")).toEqual([{ p: "bottom-right" }]);
  });

  it("reads ar with both sides (ignored, as the hosted documentation says)", () => {
    expect(parseTransform("w_360,h_360,c_crop,ar_1:1,br_180")).toEqual([
      { w: 360, h: 360, c: "crop", ar: { w: 1, h: 1 }, br: 180 },
    ]);
  });
});

describe("effects", () => {
  it("reads several e_ in one step as a list in written order; effectsOf gives the render order", () => {
    const [step] = parseTransform("e_brightness:15,e_contrast:20,e_saturation:10");
    expect(step).toEqual({ e: ["brightness:15", "contrast:20", "saturation:10"] });
    expect(effectsOf(step ?? {})).toEqual(["saturation:10", "contrast:20", "brightness:15"]);
    expect(effectsOf({ e: "grayscale" })).toEqual(["grayscale"]);
    expect(effectsOf({})).toEqual([]);
  });

  it.each([
    ["e_brightness:-99", "e_brightness:100"],
    ["e_exposure:-100", "e_tint:100"],
    ["e_gamma:-50", "e_gamma:150"],
    ["e_hue:-180", "e_hue:180"],
    ["e_sharpen:1", "e_sharpen:2000"],
    ["e_unsharp_mask:1", "e_unsharp_mask:2000"],
    ["e_structure:0", "e_fade:100"],
    ["e_blackwhite:0", "e_vignette:100"],
    ["e_blur:0.3", "e_blur:1000"],
    ["e_auto_enhance", "e_normalize"],
    ["e_improve", "e_improve:outdoor"],
    ["e_highlights:-100", "e_shadows:100"],
    ["e_temperature:-100", "e_warmth:100"],
  ])("reads the documented bounds %s and %s", (low, high) => {
    expect(safeParseTransform(low).success).toBe(true);
    expect(safeParseTransform(high).success).toBe(true);
  });

  it("splits an effect for the renderer", () => {
    expect(splitEffect("blur:2.5")).toEqual({ name: "blur", amount: 2.5, mode: undefined });
    expect(splitEffect("improve:indoor")).toEqual({ name: "improve", amount: undefined, mode: "indoor" });
    expect(splitEffect("sharpen")).toEqual({ name: "sharpen", amount: undefined, mode: undefined });
  });
});
