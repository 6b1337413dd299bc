import { describe, expect, it } from "vitest";
import { dominantColor } from "./dominant-color.js";

/** `n` pixels of one RGBA colour. */
const pixels = (n: number, rgba: [number, number, number, number]) =>
  Array.from({ length: n }, () => rgba).flat();

describe("dominantColor", () => {
  it("answers the most frequent colour, not the average", () => {
    const rgba = Uint8Array.from([...pixels(70, [220, 30, 40, 255]), ...pixels(30, [20, 60, 210, 255])]);
    expect(dominantColor(rgba)).toBe("#dc1e28");
  });

  it("averages the pixels of the winning histogram cell", () => {
    const rgba = Uint8Array.from([...pixels(2, [200, 0, 0, 255]), ...pixels(2, [202, 2, 2, 255])]);
    expect(dominantColor(rgba)).toBe("#c90101");
  });

  it("lets transparent pixels not vote, and falls back to the mean when nothing is opaque", () => {
    const rgba = Uint8Array.from([...pixels(90, [0, 0, 0, 0]), ...pixels(10, [0, 255, 0, 255])]);
    expect(dominantColor(rgba)).toBe("#00ff00");
    expect(dominantColor(Uint8Array.from(pixels(4, [100, 50, 0, 10])))).toBe("#643200");
  });
});
