import { describe, expect, it } from "vitest";
import { TransformParseError } from "../transform/transform-parse-error.js";
import { checkDeliveryTransform } from "./delivery-transform.js";

describe("checkDeliveryTransform", () => {
  it.each([
    "w_300,h_300,c_fill",
    "w_800/e_grayscale",
    "so_5,eo_15,w_400",
    "thumb_ar",
    "w_400,so_5",
    "f_gif,d_10",
  ])("accepts %s", (text) => {
    expect(() => checkDeliveryTransform(text)).not.toThrow();
  });

  it.each([
    ["q_200", "q_200: quality must be 1..100"],
    ["so_5,eo_2", "eo_2: end offset must be after the start offset (5 s)"],
    ["w_5000,so_1", "w_5000: width must be 1..4320 for video"],
    ["so_1,e_grayscale", "e_grayscale: e_ does not apply to video"],
    ["my_photos", "my_photos: unknown key my"],
  ])("refuses %s with the message of the grammar it was meant for", (text, message) => {
    expect(() => checkDeliveryTransform(text)).toThrow(TransformParseError);
    expect(() => checkDeliveryTransform(text)).toThrow(message);
  });
});
