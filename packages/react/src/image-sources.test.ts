import { describe, expect, it } from "vitest";
import { imageSources } from "./image-sources.js";

const assetsUrl = "https://cdn.example.com/assets";
const record = { workspace_no: "ws1", path: "photos/red cat.jpg" };

describe("imageSources", () => {
  it("gives a fixed-width image 1x and 2x renditions, cropped to its box, in f_auto", () => {
    const { src, srcSet, sizes } = imageSources({ src: record, width: 300, height: 200, assetsUrl });
    expect(src).toBe("https://cdn.example.com/assets/ws1/w_300,h_200,c_fill,f_auto/photos/red%20cat.jpg");
    expect(srcSet).toBe(
      `${src} 1x, https://cdn.example.com/assets/ws1/w_600,h_400,c_fill,f_auto/photos/red%20cat.jpg 2x`,
    );
    expect(sizes).toBeUndefined();
  });

  it("with sizes lists the width buckets up to twice the width, never enlarging (c_limit)", () => {
    const { srcSet, sizes } = imageSources({
      src: "ws1/a.png",
      width: 400,
      sizes: "(min-width: 800px) 400px, 100vw",
      widths: [1024, 320, 640, 800, 320],
      assetsUrl,
    });
    expect(sizes).toBe("(min-width: 800px) 400px, 100vw");
    expect(srcSet.split(", ").map((entry) => entry.split(" ")[1])).toEqual(["320w", "640w", "800w"]);
    expect(srcSet).toContain("/ws1/w_320,c_limit,f_auto/a.png 320w");
  });

  it("without width offers every bucket at 100vw and uses the largest as src", () => {
    const { src, srcSet, sizes } = imageSources({ src: "ws1/a.png", widths: [200, 100], assetsUrl });
    expect(sizes).toBe("100vw");
    expect(srcSet.split(", ")).toHaveLength(2);
    expect(src).toBe(`${assetsUrl}/ws1/w_200,c_limit,f_auto/a.png`);
  });

  it("applies the caller's transform first: a string as written, typed steps in order", () => {
    const fromString = imageSources({ src: "ws1/a.png", width: 100, transform: "e_grayscale", assetsUrl });
    expect(fromString.src).toBe(`${assetsUrl}/ws1/e_grayscale/w_100,c_limit,f_auto/a.png`);
    const fromSteps = imageSources({
      src: "ws1/a.png",
      width: 100,
      transform: [{ t: "card" }, { r: 90 }],
      format: "webp",
      quality: 70,
      assetsUrl,
    });
    expect(fromSteps.src).toBe(`${assetsUrl}/ws1/t_card/r_90/w_100,c_limit,f_webp,q_70/a.png`);
  });

  it("serves a source object through the workspace's origin", () => {
    const { src } = imageSources({
      src: { origin: "store", path: "shoe.jpg" },
      width: 50,
      assetsUrl,
      workspaceNo: "ws1",
    });
    expect(src).toBe(`${assetsUrl}/ws1-store/w_50,c_limit,f_auto/shoe.jpg`);
  });

  it("refuses an invalid transform with the SDK's INVALID_ARGUMENT, and no usable width with a RangeError", () => {
    expect(() => imageSources({ src: "ws1/a.png", width: 10, transform: "w_huge", assetsUrl })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => imageSources({ src: "ws1/a.png", widths: [0, 1.5], assetsUrl })).toThrow(RangeError);
  });
});
