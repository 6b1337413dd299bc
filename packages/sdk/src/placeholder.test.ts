import { rgbaToThumbHash, thumbHashToRGBA } from "thumbhash";
import { describe, expect, it } from "vitest";
import { placeholderUrl, thumbHashAverageColor, thumbHashToDataUrl } from "./placeholder.js";

/** A ThumbHash, base64, of a w×h image in one colour. */
function solidThumbHash(w: number, h: number, [r, g, b]: [number, number, number]): string {
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.set([r, g, b, 255], i);
  return btoa(String.fromCharCode(...rgbaToThumbHash(w, h, rgba)));
}

/** The PNG's width and height, from its IHDR. */
function pngSize(dataUrl: string): { width: number; height: number } {
  const bytes = Uint8Array.from(atob(dataUrl.slice("data:image/png;base64,".length)), (c) => c.charCodeAt(0));
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(bytes.buffer);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe("@trove/sdk/placeholder", () => {
  const hash = solidThumbHash(80, 40, [200, 40, 30]);

  it("decodes a ThumbHash to a PNG data URL with the image's aspect ratio", () => {
    const url = thumbHashToDataUrl(hash);
    expect(url.startsWith("data:image/png;base64,")).toBe(true);
    const { width, height } = pngSize(url);
    expect(width / height).toBeCloseTo(2, 0);
    const decoded = thumbHashToRGBA(Uint8Array.from(atob(hash), (c) => c.charCodeAt(0)));
    expect({ width, height }).toEqual({ width: decoded.w, height: decoded.h });
  });

  it("gives the average colour", () => {
    const [r, g, b] = /rgba\((\d+), (\d+), (\d+), 1\)/
      .exec(thumbHashAverageColor(hash))!
      .slice(1)
      .map(Number);
    expect(Math.abs(r! - 200)).toBeLessThan(20);
    expect(Math.abs(g! - 40)).toBeLessThan(20);
    expect(Math.abs(b! - 30)).toBeLessThan(20);
  });

  it("prefers the record's data_url, decodes the ThumbHash of a list row, and passes null through", () => {
    const dataUrl = "data:image/webp;base64,UklGRg==";
    expect(placeholderUrl({ thumbhash: hash, color: "#c8281e", data_url: dataUrl })).toBe(dataUrl);
    expect(placeholderUrl({ thumbhash: hash, color: "#c8281e" })).toBe(thumbHashToDataUrl(hash));
    expect(placeholderUrl(null)).toBeNull();
    expect(placeholderUrl(undefined)).toBeNull();
  });

  it("refuses a thumbhash that is not base64 with a TypeError", () => {
    expect(() => thumbHashToDataUrl("not base64!")).toThrow(TypeError);
  });
});
