import { describe, expect, it } from "vitest";
import { solid } from "../../test/support/test-images.js";
import type { AutoFormatChoice } from "./negotiate-format.js";
import { renderVariant } from "./render-variant.js";
import { variantOutputFormat } from "./variant-output-format.js";

const ACCEPT: Record<AutoFormatChoice, string> = {
  avif: "image/avif,image/webp",
  webp: "image/webp",
  legacy: "*/*",
};

describe("variantOutputFormat", () => {
  it.each([
    ["jpeg", "w_800", "legacy", "jpeg"],
    ["png", "w_10", "avif", "png"], // no f: the source's format, whatever Accept says
    ["jpeg", "w_10,f_webp", "legacy", "webp"],
    ["png", "f_jpg/w_10,f_gif", "legacy", "gif"], // the last f wins
    ["jpeg", "w_10,f_auto", "avif", "avif"],
    ["png", "w_10,f_auto", "webp", "webp"],
    ["tiff", "w_10,f_png", "legacy", "png"],
    ["jpeg", "w_256,h_256,c_limit,f_webp", "legacy", "webp"],
  ] as const)("%s + %s (%s) → %s", (source, transform, auto, expected) => {
    expect(variantOutputFormat(source, transform, auto)).toBe(expected);
  });

  it.each([
    ["tiff", "w_10", "legacy"], // png with alpha, else jpeg
    ["jpeg", "w_10,f_auto", "legacy"], // likewise
    ["pdf", "w_10", "webp"],
  ] as const)("cannot tell for %s + %s (%s)", (source, transform, auto) => {
    expect(variantOutputFormat(source, transform, auto)).toBeUndefined();
  });

  it("agrees with what renderVariant encodes, with and without alpha", async () => {
    const sources = {
      jpeg: await solid(40, 30, { r: 9, g: 8, b: 7 }, "jpeg"),
      png: await solid(40, 30, { r: 9, g: 8, b: 7, alpha: 0.5 }, "png"),
      tiff: await solid(40, 30, { r: 9, g: 8, b: 7 }, "tiff"),
    };
    const transforms = ["w_20", "w_20,f_webp", "w_20,f_auto", "w_20,f_jpg", "e_grayscale"];
    for (const [format, source] of Object.entries(sources)) {
      for (const transform of transforms) {
        for (const auto of ["avif", "webp", "legacy"] as const) {
          const expected = variantOutputFormat(format, transform, auto);
          if (expected === undefined) continue;
          const variant = await renderVariant({ input: source, transform, accept: ACCEPT[auto] });
          expect(variant.format, `${format} ${transform} ${auto}`).toBe(expected);
        }
      }
    }
  });
});
