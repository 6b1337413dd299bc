import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { metadataOf, pattern, solid } from "../../test/support/test-images.js";
import { MediaError } from "./media-error.js";
import { negotiateAutoFormat } from "./negotiate-format.js";
import { renderVariant } from "./render-variant.js";

const CHROME = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
const OLD_SAFARI = "image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5";
const CURL = "*/*";

describe("negotiateAutoFormat", () => {
  it.each([
    [CHROME, "avif"],
    [OLD_SAFARI, "webp"],
    [CURL, "legacy"],
    [undefined, "legacy"],
    ["", "legacy"],
    ["image/*", "legacy"], // wildcards do not promise AVIF or WebP
    ["image/avif;q=0, image/webp", "webp"], // q=0 means not acceptable
    ["IMAGE/AVIF ; q=0.5", "avif"],
    ["image/webp;q=0.0", "legacy"],
    ["image/webp;q=abc", "legacy"],
  ] as const)("%s → %s", (accept, choice) => {
    expect(negotiateAutoFormat(accept)).toBe(choice);
  });
});

describe("renderVariant", () => {
  it("f_auto serves AVIF, WebP or JPEG by Accept, and says Vary: Accept", async () => {
    const source = await pattern(120, 80);
    const cases = [
      [CHROME, "avif", "image/avif", "heif"],
      [OLD_SAFARI, "webp", "image/webp", "webp"],
      [CURL, "jpeg", "image/jpeg", "jpeg"],
    ] as const;
    for (const [accept, format, mimeType, decoder] of cases) {
      const variant = await renderVariant({ input: source, transform: "w_60,f_auto", accept });
      expect(variant).toMatchObject({ format, mimeType, width: 60, height: 40, vary: "Accept" });
      expect((await metadataOf(variant.body)).format).toBe(decoder);
      expect(variant.size).toBe(variant.body.length);
    }
  });

  it("f_auto without AVIF or WebP keeps transparency as PNG", async () => {
    const transparent = await solid(40, 40, { r: 0, g: 0, b: 255, alpha: 0.5 }, "png");
    const variant = await renderVariant({ input: transparent, transform: "f_auto", accept: CURL });
    expect(variant).toMatchObject({ format: "png", autoFormat: "legacy" });
    // A result that gains alpha from the transform counts too.
    const rounded = await renderVariant({
      input: await solid(40, 40, { r: 9, g: 9, b: 9 }, "jpeg"),
      transform: "br_max,f_auto",
    });
    expect(rounded.format).toBe("png");
    const opaque = await renderVariant({
      input: await solid(40, 40, { r: 9, g: 9, b: 9 }, "jpeg"),
      transform: "f_auto",
    });
    expect(opaque.format).toBe("jpeg");
  });

  it("an explicit format ignores Accept and needs no Vary", async () => {
    const variant = await renderVariant({ input: await pattern(50, 50), transform: "f_webp", accept: CURL });
    expect(variant).toMatchObject({ format: "webp", autoFormat: null, vary: null });
  });

  it("reads a storage stream", async () => {
    const bytes = await pattern(200, 100);
    const stream = Readable.from([bytes.subarray(0, 100), bytes.subarray(100)]);
    const variant = await renderVariant({ input: stream, transform: "w_100,h_100,c_fill,f_png" });
    expect(variant).toMatchObject({ width: 100, height: 100, format: "png" });
  });

  it("refuses a stream over maxInputBytes with a 413", async () => {
    const bytes = await pattern(200, 100);
    const error = await renderVariant({
      input: Readable.from([bytes]),
      transform: "w_10",
      limits: { maxInputBytes: 1000 },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ code: "FILE_TOO_LARGE", status: 413 });
  });

  it("refuses SVG sources without decoding them", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><image href="http://169.254.169.254/latest"/></svg>';
    await expect(renderVariant({ input: Buffer.from(svg), transform: "w_10" })).rejects.toMatchObject({
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  });

  it("refuses bad transforms and oversized outputs with 400s", async () => {
    const source = await pattern(50, 50);
    await expect(renderVariant({ input: source, transform: "w_abc" })).rejects.toMatchObject({
      code: "INVALID_TRANSFORM",
      status: 400,
    });
    // A named step left unresolved would otherwise render as the source itself.
    await expect(renderVariant({ input: source, transform: "w_20/t_card" })).rejects.toMatchObject({
      code: "INVALID_TRANSFORM",
      status: 400,
      message: "t_card: named transforms apply at delivery only",
    });
    await expect(
      renderVariant({ input: source, transform: "w_8192,h_8192,c_scale,fl_upscale" }),
    ).rejects.toMatchObject({
      code: "IMAGE_TOO_LARGE",
      status: 400,
    });
  });
});
