import { describe, expect, it } from "vitest";
import { isTransformStep } from "./is-transform-step.js";
import { safeParseTransform } from "./parse-transform.js";

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
    ];
    const joins = ["", ",h_200", ",", ",c_limit,f_webp", ",w_abc"];
    for (const head of heads) {
      for (const tail of tails) {
        for (const join of joins) {
          for (const segment of [`${head}${tail}${join}`, `${join.slice(1)},${head}${tail}`]) {
            if (segment === "" || segment.includes("/")) continue;
            expect(isTransformStep(segment), segment).toBe(safeParseTransform(segment).success);
          }
        }
      }
    }
  });
});
