import { describe, expect, it } from "vitest";
import { MAX_TRANSFORM_LENGTH, MAX_TRANSFORM_STEPS } from "./limits.js";
import { parseTransform, safeParseTransform } from "./parse-transform.js";
import { TransformParseError } from "./transform-parse-error.js";

function errorOf(input: string): TransformParseError {
  const result = safeParseTransform(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return result.error;
}

describe("parseTransform", () => {
  it("reads steps left to right, directives as written", () => {
    expect(parseTransform("w_300,h_300,c_fill,q_80")).toEqual([{ w: 300, h: 300, c: "fill", q: 80 }]);
    expect(parseTransform("w_800/e_grayscale")).toEqual([{ w: 800 }, { e: "grayscale" }]);
    expect(parseTransform("e_grayscale/w_800")).toEqual([{ e: "grayscale" }, { w: 800 }]);
  });

  it("reads every key and keeps the spelling that normalisation changes", () => {
    expect(
      parseTransform("w_1,ar_1.5:1,c_pad,p_attention,f_jpeg,q_auto,r_-90,flip_hv,bg_FF0000,br_max,e_sharpen"),
    ).toEqual([
      {
        w: 1,
        ar: { w: 1.5, h: 1 },
        c: "pad",
        p: "attention",
        f: "jpeg",
        q: "auto",
        r: -90,
        flip: "hv",
        bg: "FF0000",
        br: "max",
        e: "sharpen",
      },
    ]);
    expect(parseTransform("h_8192,q_1,r_360,bg_grey,br_0,e_brightness:-99")).toEqual([
      { h: 8192, q: 1, r: 360, bg: "grey", br: 0, e: "brightness:-99" },
    ]);
  });

  it("accepts a key again in another step, and a gravity that the mode ignores", () => {
    expect(parseTransform("w_100/w_50")).toEqual([{ w: 100 }, { w: 50 }]);
    expect(parseTransform("w_100,c_scale,p_tl")).toEqual([{ w: 100, c: "scale", p: "tl" }]);
  });

  it.each([
    // wrong kind
    ["w_abc", "w_abc: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["w_1.5", "w_1.5: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["w_", "w_: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["w_0300", "w_0300: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["w_+300", "w_+300: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["w_1e3", "w_1e3: width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["w_300 ", "w_300 : width must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["h_-0", "h_-0: height must be an integer 1..8192 or a fraction 0.01..0.99"],
    ["q_high", "q_high: quality must be an integer or one of auto, auto:best, auto:good, auto:eco, auto:low"],
    ["q_80.5", "q_80.5: quality must be an integer or one of auto, auto:best, auto:good, auto:eco, auto:low"],
    ["r_1.5", "r_1.5: rotation must be an integer number of degrees or one of auto, portrait, landscape"],
    ["br_round", "br_round: corner radius must be an integer or max"],
    ["w_5,ar_16", "ar_16: aspect ratio must be W:H with two positive numbers"],
    ["w_5,ar_16:9:1", "ar_16:9:1: aspect ratio must be W:H with two positive numbers"],
    ["w_5,ar_16x9", "ar_16x9: aspect ratio must be W:H with two positive numbers"],
    ["w_5,ar_-16:9", "ar_-16:9: aspect ratio must be W:H with two positive numbers"],
    ["e_blur:x", "e_blur:x: blur must be a number with at most 2 decimals"],
    ["e_contrast:", "e_contrast:: contrast must be an integer"],
    // out of range
    ["q_200", "q_200: quality must be 1..100"],
    ["q_0", "q_0: quality must be 1..100"],
    ["w_0", "w_0: width must be 1..8192"],
    ["w_8193", "w_8193: width must be 1..8192"],
    ["w_-5", "w_-5: width must be 1..8192"],
    ["w_99999999999999999999", "w_99999999999999999999: width must be 1..8192"],
    ["h_8193", "h_8193: height must be 1..8192"],
    ["r_36001", "r_36001: rotation must be -36000..36000 degrees"],
    ["r_-36001", "r_-36001: rotation must be -36000..36000 degrees"],
    ["r_99999999999999999999", "r_99999999999999999999: rotation must be -36000..36000 degrees"],
    ["br_-1", "br_-1: corner radius must be 0..8192"],
    ["br_8193", "br_8193: corner radius must be 0..8192"],
    ["w_5,ar_0:9", "ar_0:9: aspect ratio terms must be 0.01..9999.99 with at most 2 decimals"],
    ["w_5,ar_10000:1", "ar_10000:1: aspect ratio terms must be 0.01..9999.99 with at most 2 decimals"],
    ["w_5,ar_1.234:1", "ar_1.234:1: aspect ratio terms must be 0.01..9999.99 with at most 2 decimals"],
    ["w_5,ar_016:9", "ar_016:9: aspect ratio terms must be 0.01..9999.99 with at most 2 decimals"],
    ["e_blur:0", "e_blur:0: blur must be 0.3..1000"],
    ["e_blur:0.1", "e_blur:0.1: blur must be 0.3..1000"],
    ["e_blur:1001", "e_blur:1001: blur must be 0.3..1000"],
    ["e_blur:1.234", "e_blur:1.234: blur must be a number with at most 2 decimals"],
    ["e_sharpen:0", "e_sharpen:0: sharpen must be 1..2000"],
    ["e_sharpen:2001", "e_sharpen:2001: sharpen must be 1..2000"],
    ["e_brightness:-100", "e_brightness:-100: brightness must be -99..100"],
    ["e_saturation:101", "e_saturation:101: saturation must be -100..100"],
    ["e_gamma:-51", "e_gamma:-51: gamma must be -50..150"],
    ["e_hue:181", "e_hue:181: hue must be -180..180"],
    ["e_vignette:-1", "e_vignette:-1: vignette must be 0..100"],
    ["e_unsharp_mask", "e_unsharp_mask: unsharp_mask needs an amount 1..2000"],
    ["e_improve:night", "e_improve:night: improve mode must be one of indoor, outdoor"],
    // not in the list
    ["c_stretch", "c_stretch: crop mode must be one of fill, fit, limit, scale, pad, crop"],
    ["c_FILL", "c_FILL: crop mode must be one of fill, fit, limit, scale, pad, crop"],
    [
      "p_middle",
      "p_middle: gravity must be one of c, t, b, l, r, tl, tr, bl, br, entropy, attention, face, center, top, bottom, left, right, top-left, top-right, bottom-left, bottom-right",
    ],
    ["f_bmp", "f_bmp: format must be one of jpg, jpeg, png, webp, avif, gif, tiff, auto"],
    ["f_JPG", "f_JPG: format must be one of jpg, jpeg, png, webp, avif, gif, tiff, auto"],
    ["flip_x", "flip_x: flip must be h, v or hv"],
    ["flip_vh", "flip_vh: flip must be h, v or hv"],
    [
      "e_sepia",
      "e_sepia: effect must be one of improve, unsharp_mask, saturation, contrast, brightness, gamma, sharpen, grayscale, blackwhite, auto_enhance, blur, exposure, fade, highlights, hue, invert, normalize, shadows, structure, temperature, tint, vignette, warmth",
    ],
    ["e_blur", "e_blur: blur needs an amount 0.3..1000"],
    ["e_grayscale:5", "e_grayscale:5: grayscale takes no amount"],
    ["e_invert:", "e_invert:: invert takes no amount"],
    // unknown keys, including ones that exist on Object.prototype
    ["zz_1", "zz_1: unknown key zz"],
    ["W_300", "W_300: unknown key W"],
    ["width_300", "width_300: unknown key width"],
    ["constructor_1", "constructor_1: unknown key constructor"],
    ["toString_x", "toString_x: unknown key toString"],
    ["hasOwnProperty_w", "hasOwnProperty_w: unknown key hasOwnProperty"],
    [" w_300", " w_300: unknown key  w"],
    // not key_value
    ["w300", "w300: directive must be key_value"],
    ["_300", "_300: directive must be key_value"],
    ["__proto___1", "__proto___1: directive must be key_value"],
    // repeated keys
    ["w_1,h_2,w_3", "w_3: key w is repeated in the step"],
    ["w_1,w_1", "w_1: key w is repeated in the step"],
    ["e_grayscale,e_invert,e_grayscale", "e_grayscale: effect grayscale is repeated in the step"],
    ["e_blur:5,e_blur:6", "e_blur:6: effect blur is repeated in the step"],
    // rules between directives
    ["ar_16:9", "ar_16:9: aspect ratio needs w or h in the same step"],
    ["w_100/ar_16:9", "ar_16:9: aspect ratio needs w or h in the same step"],
  ])("rejects %j with %j", (input, message) => {
    const error = errorOf(input);
    expect(error).toBeInstanceOf(TransformParseError);
    expect(error.message).toBe(message);
    expect(`${error.directive}: ${error.reason}`).toBe(message);
    expect(() => parseTransform(input)).toThrow(message);
  });

  it.each([
    ["", "transform is empty"],
    ["w_1//h_1", "step 2 is empty"],
    ["/w_1", "step 1 is empty"],
    ["w_1/", "step 2 is empty"],
    ["w_1,,h_1", "step 1 has an empty directive"],
    ["w_1/h_1,", "step 2 has an empty directive"],
    [",w_1", "step 1 has an empty directive"],
  ])("rejects the structure of %j with %j and no directive", (input, message) => {
    const error = errorOf(input);
    expect(error.message).toBe(message);
    expect(error.reason).toBe(message);
    expect(error.directive).toBeUndefined();
  });

  it("reports the first error from the left", () => {
    expect(errorOf("w_0,q_200").message).toBe("w_0: width must be 1..8192");
    expect(errorOf("w_100/q_200/x_1").message).toBe("q_200: quality must be 1..100");
  });

  it(`rejects more than ${MAX_TRANSFORM_STEPS} steps before reading them`, () => {
    const steps = (n: number) => Array.from({ length: n }, () => "w_1").join("/");
    expect(parseTransform(steps(MAX_TRANSFORM_STEPS))).toHaveLength(MAX_TRANSFORM_STEPS);
    expect(errorOf(steps(MAX_TRANSFORM_STEPS + 1)).message).toBe("transform has more than 10 steps");
    // The step count comes before any step is read, so an invalid step does not hide it.
    expect(errorOf(`x_1${"/".repeat(MAX_TRANSFORM_STEPS)}`).message).toBe("transform has more than 10 steps");
  });

  it(`rejects more than ${MAX_TRANSFORM_LENGTH} characters before reading them`, () => {
    expect(errorOf("x".repeat(MAX_TRANSFORM_LENGTH + 1)).message).toBe(
      "transform is longer than 8192 characters",
    );
    expect(errorOf(`w_1/${",".repeat(1_000_000)}`).message).toBe("transform is longer than 8192 characters");
    expect(errorOf("x".repeat(MAX_TRANSFORM_LENGTH)).message).toBe(
      `${"x".repeat(8192)}: directive must be key_value`,
    );
  });

  it("rejects a value that is not a string", () => {
    expect(() => parseTransform(300 as unknown as string)).toThrow("transform must be a string");
    expect(safeParseTransform(undefined as unknown as string)).toMatchObject({ success: false });
  });
});

describe("safeParseTransform", () => {
  it("returns the steps on success", () => {
    expect(safeParseTransform("w_300,f_webp")).toEqual({ success: true, data: [{ w: 300, f: "webp" }] });
  });

  it("returns the error on failure", () => {
    const result = safeParseTransform("q_200");
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toBeInstanceOf(TransformParseError);
    expect(result.error).toBeInstanceOf(Error);
    expect(result.error.name).toBe("TransformParseError");
    expect(result.error.directive).toBe("q_200");
    expect(result.error.reason).toBe("quality must be 1..100");
    expect(result.error.message).toBe("q_200: quality must be 1..100");
  });
});
