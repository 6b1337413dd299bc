import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { processImage } from "../process-image.js";

describe("layers at store time", () => {
  const photo = () =>
    sharp({ create: { width: 200, height: 100, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();

  it("draws a text layer into the stored image", async () => {
    const { output } = await processImage({
      input: await photo(),
      transform: "l_text:arial_40_bold:Hi,co_ff0000,tp_north-west,fl_layer_apply",
    });
    expect(output.kind).toBe("transformed");
    const buffer = output.kind === "transformed" ? output.buffer : Buffer.alloc(0);
    const { data } = await sharp(buffer).raw().toBuffer({ resolveWithObject: true });
    let red = 0;
    for (let i = 0; i < data.length; i += 3) if (data[i] === 255 && (data[i + 1] as number) < 80) red++;
    expect(red).toBeGreaterThan(50);
  });

  it("refuses an image layer: the upload path names no workspace file", async () => {
    await expect(
      processImage({ input: await photo(), transform: "l_image:logo.png,fl_layer_apply" }),
    ).rejects.toMatchObject({ code: "INVALID_TRANSFORM", message: expect.stringMatching(/delivery only/) });
  });
});
