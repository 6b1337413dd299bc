import { describe, expect, it } from "vitest";
import { initialCrop, moveCrop, resizeCrop } from "./crop-box.js";

const image = { width: 400, height: 300 };

describe("crop box", () => {
  it("starts as the largest centred box of the ratio, or the whole image when free", () => {
    expect(initialCrop(image, null)).toEqual({ x: 0, y: 0, width: 400, height: 300 });
    expect(initialCrop(image, 1)).toEqual({ x: 50, y: 0, width: 300, height: 300 });
    expect(initialCrop(image, 16 / 9)).toEqual({ x: 0, y: 38, width: 400, height: 225 });
  });

  it("moves inside the image only", () => {
    const box = initialCrop(image, 1);
    expect(moveCrop(box, image, 30, 0)).toMatchObject({ x: 80, y: 0 });
    expect(moveCrop(box, image, 500, 500)).toMatchObject({ x: 100, y: 0 });
    expect(moveCrop(box, image, -500, -5)).toMatchObject({ x: 0, y: 0 });
  });

  it("resizes within the image, keeping the chosen ratio", () => {
    const square = { x: 0, y: 0, width: 100, height: 100 };
    expect(resizeCrop(square, image, 40, 0, 1)).toEqual({ x: 0, y: 0, width: 140, height: 140 });
    expect(resizeCrop(square, image, 0, 500, 1)).toEqual({ x: 0, y: 0, width: 300, height: 300 });
    expect(resizeCrop(square, image, -500, 0, 1)).toEqual({ x: 0, y: 0, width: 1, height: 1 });
    expect(resizeCrop(square, image, 20, -30, null)).toEqual({ x: 0, y: 0, width: 120, height: 70 });
    expect(resizeCrop({ ...square, x: 350 }, image, 100, 0, null)).toMatchObject({ width: 50 });
  });
});
