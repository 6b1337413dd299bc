import { describe, expect, it } from "vitest";
import { isTransformStep } from "./is-transform-step.js";

describe("isTransformStep", () => {
  it.each(["w_300", "r_0", "br_0", "e_brightness:0", "w_256,h_256,c_limit,f_webp", "f_auto", "bg_red"])(
    "reads %s as a step",
    (segment) => {
      expect(isTransformStep(segment)).toBe(true);
    },
  );

  it.each([
    "",
    "photos",
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
});
