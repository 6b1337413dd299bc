import { describe, expect, it } from "vitest";
import { isVideoStep } from "../video/is-video-step.js";
import { isTransformStep } from "./is-transform-step.js";
import { safeParseTransform } from "./parse-transform.js";

describe("isTransformStep", () => {
  it.each(["w_300", "r_0", "br_0", "e_brightness:0", "w_256,h_256,c_limit,f_webp", "f_auto", "bg_red"])(
    "reads %s as a step",
    (segment) => {
      expect(isTransformStep(segment)).toBe(true);
    },
  );

  // Names issue #32's keys make steps: refused as file and folder names, so a path reads one way.
  it.each([
    "z_2",
    "o_50",
    "dpr_2",
    "fo_face",
    "ps_center",
    "ps_10,20",
    "w_auto",
    "w_0.5",
    "r_auto",
    "fl_upscale",
    "f_tiff",
    "q_auto:best",
    "e_hue:30",
    "e_blur:0.5",
    "l_image:logo.png,fl_layer_apply",
    "l_text:arial_24:Hello%20World,fl_layer_apply",
  ])("reads %s as a step now", (segment) => {
    expect(isTransformStep(segment)).toBe(true);
  });

  // Issue #33's video steps: `{ws}/so_5,eo_15/clip.mp4` is a trim of clip.mp4, not a folder.
  it.each([
    "thumb_ar",
    "so_5",
    "so_0",
    "d_10",
    "so_5,eo_15,w_400",
    "cm_pad_resize",
    "cm_extract,w_400,h_400",
    "w_400,h_400,cm_pad_resize,bg_blurred_10",
    "f_gif,so_5,d_10,w_400",
    "w_4320,r_90",
    "st_240_360",
    "st_240_360_480_720",
  ])("reads the video step %s as a step", (segment) => {
    expect(isTransformStep(segment)).toBe(true);
  });

  it.each([
    "so_5.mp4",
    "so_",
    "thumb_nail",
    "thumb_ar.webp",
    "d_day",
    "eo_5,d_5",
    "cm_fill",
    "st_240_180",
    "st_240.m3u8",
    "so_5,e_grayscale",
  ])("does not read %j as a video step", (segment) => {
    expect(isTransformStep(segment)).toBe(false);
  });

  it.each([
    "",
    "photos",
    "z_photo.jpg",
    "o_my.png",
    "x_5",
    "lw_5",
    "tp_north",
    "l_text",
    "l_image:logo.png",
    "fo_car",
    "ps_10",
    "e_blur:0.1",
    "w_abc",
    "e_ticket.pdf",
    "w_100.jpg",
    "c_photo.jpg",
    "my_photos",
    "w_300/e_grayscale",
    "w_300,",
    "W_300",
  ])("does not read %j as a step", (segment) => {
    expect(isTransformStep(segment)).toBe(false);
  });

  // The shortcut for names that cannot start a step must never disagree with the parser.
  it("agrees with the parser on names near the grammar", () => {
    const heads = [
      "",
      "w",
      "W",
      "t",
      "e",
      "br",
      "flip",
      "bg",
      "ar",
      "x",
      "z",
      "o",
      "l",
      "lw",
      "tp",
      "fl",
      "ps",
      "fo",
      "dpr",
      "so",
      "eo",
      "d",
      "cm",
      "thumb",
      "st",
      "constructor",
      "toString",
      "__proto__",
    ];
    const tails = [
      "_300",
      "_0",
      "_abc",
      "_grayscale",
      "_card",
      "_16:9",
      "_red",
      "_hv",
      "_",
      "",
      ".jpg",
      "_300.jpg",
      "_1.5",
      "_0.5",
      "_auto",
      "_face",
      "_upscale",
      "_layer_apply",
      "_text:arial_24:Hi",
      "_image:a.png",
      "_10",
      "_ar",
      "_pad_resize",
      "_240_360",
    ];
    const joins = ["", ",h_200", ",", ",c_limit,f_webp", ",w_abc", ",20", ",fl_layer_apply"];
    for (const head of heads) {
      for (const tail of tails) {
        for (const join of joins) {
          for (const segment of [`${head}${tail}${join}`, `${join.slice(1)},${head}${tail}`]) {
            if (segment === "" || segment.includes("/")) continue;
            const step = safeParseTransform(segment).success || isVideoStep(segment);
            expect(isTransformStep(segment), segment).toBe(step);
          }
        }
      }
    }
  });
});
