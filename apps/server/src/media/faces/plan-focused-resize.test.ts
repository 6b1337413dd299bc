import type { TransformStep } from "@trove/schema";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { shapes } from "../../../test/support/test-images.js";
import type { Size } from "../frame.js";
import type { Box } from "./box.js";
import { type FaceFocus, turnFaceFocus } from "./face-focus.js";
import { planFocusedResize } from "./plan-focused-resize.js";

// A 1000×500 blue image with a red "face" at 100..200 × 50..150 and a green one at 800..850 × 300..350.
const INPUT: Size = { width: 1000, height: 500 };
const RED: Box = { left: 100, top: 50, width: 100, height: 100 };
const GREEN: Box = { left: 800, top: 300, width: 50, height: 50 };
const source = () =>
  shapes(INPUT.width, INPUT.height, "#0000ff", [
    { rect: RED, colour: "#ff0000" },
    { rect: GREEN, colour: "#00ff00" },
  ]);

const focusOn = (main: Box, ...others: Box[]): FaceFocus => {
  const boxes = [main, ...others];
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  return { faces: { left, top, width: right - left, height: bottom - top }, main, margin: main.width / 2 };
};

/** Runs the planned ops one pipeline each (as runTransform does) and returns the raw result. */
async function render(step: TransformStep, focus: FaceFocus | undefined) {
  let buffer = await source().png().toBuffer();
  let shape = { ...INPUT, channels: 3 as const };
  for (const op of planFocusedResize(step, INPUT, focus)) {
    if (op.skip?.(shape)) continue;
    expect(op.outputSize(shape)).toBeDefined();
    buffer = await (await op.apply(sharp(buffer), shape)).png().toBuffer();
    const { width = 0, height = 0 } = await sharp(buffer).metadata();
    shape = { width, height, channels: 3 };
  }
  const { data, info } = await sharp(buffer).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (Math.round(y) * info.width + Math.round(x)) * 3;
    const [r = 0, g = 0, b = 0] = data.subarray(i, i + 3);
    return r > 200 && g < 60 && b < 60
      ? "red"
      : g > 200 && r < 60 && b < 60
        ? "green"
        : b > 200 && r < 60
          ? "blue"
          : "mixed";
  };
  return { width: info.width, height: info.height, at };
}

describe("planFocusedResize", () => {
  it("p_face with c_fill centres the cover window on the face, kept inside the image", async () => {
    const step: TransformStep = { w: 200, h: 200, c: "fill", p: "face" };
    const faced = await render(step, focusOn(RED));
    // The 500×500 window is clamped to the left edge: the face lands at 40..80 × 20..60.
    expect(faced).toMatchObject({ width: 200, height: 200 });
    expect(faced.at(60, 40)).toBe("red");
    // No face found: p_c, whose window (250..750) misses the red square.
    const centred = await render(step, undefined);
    expect(centred.at(60, 40)).toBe("blue");
  });

  it("p_face with c_crop cuts the w×h window around the face", async () => {
    const crop = await render({ w: 100, h: 100, c: "crop", p: "face" }, focusOn(RED));
    expect(crop).toMatchObject({ width: 100, height: 100 });
    for (const [x, y] of [
      [2, 2],
      [97, 97],
      [50, 50],
    ] as const)
      expect(crop.at(x, y)).toBe("red");
  });

  it("several faces: the window centres on their union when it holds it, else on the largest face", async () => {
    // A 2:1 fill holds both (union 100..850 × 50..350 fits in 1000×500): both stay.
    const wide = await render({ w: 400, h: 200, p: "face" }, focusOn(RED, GREEN));
    expect(wide.at(60, 40)).toBe("red");
    expect(wide.at(330, 130)).toBe("green");
    // A square window (500×500) cannot: it goes to the red (largest) face, not to the empty middle.
    const square = await render({ w: 200, h: 200, p: "face" }, focusOn(RED, GREEN));
    expect(square.at(60, 40)).toBe("red");
  });

  it("fo_face alone with one side frames the face with a margin, then resizes (no enlargement)", async () => {
    // The face grown by 50 px: 50..250 × 0..200 (clamped at the top), then w_100.
    const framed = await render({ w: 100, fo: "face" }, focusOn(RED));
    expect(framed).toMatchObject({ width: 100, height: 100 });
    expect(framed.at(50, 62)).toBe("red");
    expect(framed.at(10, 62)).toBe("blue");
    // w_300 of a 200 px frame stays 200 px: the documented no-upscale default.
    expect(await render({ w: 300, fo: "face" }, focusOn(RED))).toMatchObject({ width: 200, height: 200 });
  });

  it("fo_face with w and h frames the face in the output's shape", async () => {
    // Face + margin is 200×200; the 2:1 window around it is 400×200, clamped to x 0..400.
    const framed = await render({ w: 200, h: 100, fo: "face" }, focusOn(RED));
    expect(framed).toMatchObject({ width: 200, height: 100 });
    expect(framed.at(75, 50)).toBe("red");
    expect(framed.at(190, 50)).toBe("blue");
    // No face: fo frames nothing, the fill is the centred cover of the whole image.
    expect(await render({ w: 200, h: 100, fo: "face" }, undefined)).toMatchObject({
      width: 200,
      height: 100,
    });
  });
});

describe("turnFaceFocus", () => {
  it("moves the boxes as a quarter turn clockwise moves the image", () => {
    // In a 1000×500 image turned to 500×1000, (x, y) goes to (500 - y, x).
    const turned = turnFaceFocus(focusOn(RED), INPUT);
    expect(turned.main).toEqual({ left: 500 - 150, top: 100, width: 100, height: 100 });
    expect(turned.faces).toEqual(turned.main);
  });
});
