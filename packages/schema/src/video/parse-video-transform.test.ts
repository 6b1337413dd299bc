import { describe, expect, it } from "vitest";
import { MAX_TRANSFORM_LENGTH } from "../transform/limits.js";
import { TransformParseError } from "../transform/transform-parse-error.js";
import { parseVideoTransform } from "./parse-video-transform.js";

/** The TransformParseError parseVideoTransform throws for text. */
function refusal(text: string): TransformParseError {
  try {
    parseVideoTransform(text);
  } catch (error) {
    if (error instanceof TransformParseError) return error;
    throw error;
  }
  throw new Error(`${text} was accepted`);
}

describe("parseVideoTransform", () => {
  it.each([
    ["thumb_ar", { thumb: true }],
    ["w_400", { w: 400 }],
    ["so_5,eo_15,w_400", { so: 5, eo: 15, w: 400 }],
    ["so_0,eo_5,w_400", { eo: 5, w: 400 }],
    ["d_10", { d: 10 }],
    ["f_gif,so_5,d_10,w_400", { f: "gif", so: 5, d: 10, w: 400 }],
    ["w_500,so_5,eo_15,f_gif", { w: 500, so: 5, eo: 15, f: "gif" }],
    ["w_400,ar_1:1", { w: 400, ar: { w: 1, h: 1 } }],
    ["ar_16:9", { ar: { w: 16, h: 9 } }],
    [
      "w_400,h_400,cm_pad_resize,bg_white",
      { w: 400, h: 400, cm: "pad_resize", bg: { kind: "colour", hex: "ffffff" } },
    ],
    ["w_400,h_300,cm_extract", { w: 400, h: 300, cm: "extract" }],
    ["r_90,w_400", { r: 90, w: 400 }],
    ["flip_hv", { flip: "hv" }],
  ])("reads the hosted example %s", (text, model) => {
    expect(parseVideoTransform(text)).toEqual(model);
  });

  it("rounds sizes up to even, within 4320", () => {
    expect(parseVideoTransform("w_401,h_1")).toEqual({ w: 402, h: 2 });
    expect(parseVideoTransform("w_4319")).toEqual({ w: 4320 });
    expect(refusal("w_4321").message).toBe("w_4321: width must be 1..4320 for video");
  });

  it("reads offsets with up to 3 decimals and keeps them as numbers", () => {
    expect(parseVideoTransform("so_1.5,eo_2.250")).toEqual({ so: 1.5, eo: 2.25 });
    expect(parseVideoTransform("d_0.001")).toEqual({ d: 0.001 });
    expect(refusal("so_1.2345").message).toMatch(/^so_1\.2345: start offset must be seconds/);
  });

  it("reads backgrounds: colour names and hex as the image grammar, and blurred", () => {
    const box = "w_10,h_10,";
    expect(parseVideoTransform(`${box}bg_grey`).bg).toEqual({ kind: "colour", hex: "808080" });
    expect(parseVideoTransform(`${box}bg_FF0000`).bg).toEqual({ kind: "colour", hex: "ff0000" });
    expect(parseVideoTransform(`${box}bg_blurred`).bg).toEqual({ kind: "blurred", strength: 20 });
    expect(parseVideoTransform(`${box}bg_blurred_10`).bg).toEqual({ kind: "blurred", strength: 10 });
    expect(refusal(`${box}bg_blurred_0`).message).toBe("bg_blurred_0: blur strength must be 1..100");
    expect(refusal(`${box}bg_blurred_101`).message).toBe("bg_blurred_101: blur strength must be 1..100");
    expect(refusal(`${box}bg_transparent`).message).toMatch(/^bg_transparent: video has no transparency/);
  });

  it("reduces ratios and drops no-ops: so_0, r_0, ar_ beside both sides", () => {
    expect(parseVideoTransform("w_400,ar_32:18")).toEqual({ w: 400, ar: { w: 16, h: 9 } });
    expect(parseVideoTransform("so_0")).toEqual({});
    expect(parseVideoTransform("r_0,w_10")).toEqual({ w: 10 });
    expect(parseVideoTransform("w_400,h_300,ar_1:1")).toEqual({ w: 400, h: 300 });
    // Nothing to fit or pad without a box (both sides, or a ratio): cm_ and bg_ change nothing.
    expect(parseVideoTransform("cm_pad_resize")).toEqual({});
    expect(parseVideoTransform("w_400,cm_extract")).toEqual({ w: 400 });
    expect(parseVideoTransform("h_400,bg_red,cm_pad_resize")).toEqual({ h: 400 });
    expect(parseVideoTransform("ar_1:1,cm_pad_resize,bg_red")).toEqual({
      ar: { w: 1, h: 1 },
      cm: "pad_resize",
      bg: { kind: "colour", hex: "ff0000" },
    });
  });

  it.each([
    ["so_1e9", "so_1e9: start offset must be seconds, a non-negative number with at most 3 decimals"],
    ["so_86400.001", "so_86400.001: start offset must be 0..86400 seconds"],
    ["w_-2", "w_-2: width must be 1..4320 for video"],
    ["w_0", "w_0: width must be 1..4320 for video"],
    ["w_0x10", "w_0x10: width must be an integer 1..4320"],
    ["w_1.5", "w_1.5: width must be an integer 1..4320"],
    ["w_400,w_500", "w_500: w_ is given twice"],
    ["ar_0:1", "ar_0:1: aspect ratio terms must be 1..100 for video"],
    ["ar_101:1", "ar_101:1: aspect ratio terms must be 1..100 for video"],
    ["ar_1.5:1", "ar_1.5:1: aspect ratio must be W:H with two positive integers"],
    ["ar_16", "ar_16: aspect ratio must be W:H with two positive integers"],
    ["r_45", "r_45: rotation must be 0, 90, 180 or 270 (clockwise) for video"],
    ["r_-90", "r_-90: rotation must be 0, 90, 180 or 270 (clockwise) for video"],
    ["r_360", "r_360: rotation must be 0, 90, 180 or 270 (clockwise) for video"],
    ["eo_5,d_2", "d_2: use eo_ or d_, not both"],
    ["so_5,eo_5", "eo_5: end offset must be after the start offset (5 s)"],
    ["so_5,eo_4", "eo_4: end offset must be after the start offset (5 s)"],
    ["eo_0", "eo_0: end offset must be after the start offset (0 s)"],
    ["d_0", "d_0: duration must be more than 0 and at most 86400 seconds"],
    ["e_grayscale", "e_grayscale: e_ does not apply to video"],
    ["w_400,q_80", "q_80: q_ does not apply to video"],
    ["l_text:arial_20:Hi", "l_text:arial_20:Hi: l_ does not apply to video"],
    ["c_fill", "c_fill: c_ does not apply to video"],
    [
      "st_240_360",
      "st_240_360: st_ (a streaming ladder) is a step of its own, not part of a video transform",
    ],
    ["zz_1", "zz_1: unknown key zz"],
    ["constructor_1", "constructor_1: unknown key constructor"],
    ["thumb", "thumb: directive must be key_value"],
    ["thumb_x", "thumb_x: the thumbnail directive is thumb_ar"],
    ["thumb_ar,eo_5", "eo_5: thumb_ar takes one frame (at so_): eo_ does not apply"],
    ["thumb_ar,d_5", "d_5: thumb_ar takes one frame (at so_): d_ does not apply"],
    ["thumb_ar,f_gif", "f_gif: thumb_ar makes a WebP still: f_gif does not apply"],
    ["f_mp4", "f_mp4: format must be gif for video (the output is MP4 without f_)"],
    ["cm_fill,w_1,h_1", "cm_fill: crop mode must be pad_resize or extract"],
    ["w_4,h_4,cm_extract,bg_red", "bg_red: bg_ fills padding, and cm_extract crops instead of padding"],
    ["flip_x", "flip_x: flip must be h, v or hv"],
    ["w_400,,h_4", "video transform has an empty directive"],
    ["w_400/h_300", "a video transform is one step, without /"],
    ["", "video transform is empty"],
  ])("refuses %j naming the directive", (text, message) => {
    expect(refusal(text).message).toBe(message);
  });

  it("refuses long input before reading it, and very long numbers as out of range", () => {
    expect(refusal(`w_${"9".repeat(MAX_TRANSFORM_LENGTH)}`).message).toBe(
      `video transform is longer than ${MAX_TRANSFORM_LENGTH} characters`,
    );
    const long = `w_${"9".repeat(MAX_TRANSFORM_LENGTH - 10)}`;
    expect(refusal(long).reason).toBe("width must be 1..4320 for video");
    expect(refusal(`so_${"1".repeat(400)}.5`).reason).toBe("start offset must be 0..86400 seconds");
    expect(refusal(`so_1.${"0".repeat(400)}`).reason).toMatch(/at most 3 decimals/);
    expect(refusal("w_2,".repeat(2000).slice(0, -1)).message).toBe("w_2: w_ is given twice");
  });

  it("refuses non-strings with a TransformParseError", () => {
    expect(refusal(42 as unknown as string).message).toBe("video transform must be a string");
  });
});
