// Effects and base opacity through the delivery host (issue #32): several e_ in one step in any
// written order are one image and one cache entry; the documented ranges are the bounds (400
// naming the directive outside them); o_ of a JPEG without f_ stays a JPEG laid on white, with
// f_png it keeps its transparency. Every case decodes the output and checks its pixels.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/index.js";
import { pattern, solid } from "./support/test-images.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
let ws: string;

beforeAll(async () => {
  t = await createTestApp();
  ws = t.workspace.workspaceNo;
  const upload = async (name: string, content: Buffer) =>
    uploaded(await directUpload(t, { file_name: name, folder: "fx" }, { content }));
  await upload("photo.png", await pattern(240, 160));
  await upload("red.png", await solid(120, 80, { r: 220, g: 30, b: 30 }, "png"));
  await upload("grey.jpg", await solid(120, 80, { r: 200, g: 200, b: 200 }, "jpeg"));
});
afterAll(async () => {
  await t?.close();
});

const get = (transform: string, path: string) =>
  t.app.inject({ method: "GET", url: `/assets/${ws}/${transform}/fx/${path}` });

async function pixels(payload: Buffer) {
  const { data, info } = await sharp(payload).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [
    ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x + 1) * info.channels),
  ];
  return { info, at };
}

describe("effects through the delivery host", () => {
  it("renders several effects whatever their written order: one image, one cache entry", async () => {
    const first = await get("e_brightness:15,e_contrast:20", "photo.png");
    const second = await get("e_contrast:20,e_brightness:15", "photo.png");
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(Buffer.compare(first.rawPayload, second.rawPayload)).toBe(0);
    // And it is not the untouched image.
    const plain = await get("f_png", "photo.png");
    expect(Buffer.compare(first.rawPayload, plain.rawPayload)).not.toBe(0);
  });

  it("applies the hosted service's three-effect example", async () => {
    const res = await get("e_brightness:15,e_contrast:20,e_saturation:10", "red.png");
    expect(res.statusCode).toBe(200);
    const [r, g, b] = (await pixels(res.rawPayload)).at(10, 10) as [number, number, number];
    // Lighter (brightness, contrast) and still a strong red (saturation).
    expect(r).toBeGreaterThan(240);
    expect(r - Math.max(g, b)).toBeGreaterThan(160);
    expect(g + b).toBeGreaterThan(60);
  });

  it("e_hue:180 turns a red image cyan-ish", async () => {
    const res = await get("e_hue:180", "red.png");
    const [r, g, b] = (await pixels(res.rawPayload)).at(60, 40) as [number, number, number];
    expect(g).toBeGreaterThan(r);
    expect(b).toBeGreaterThan(r);
  });

  it("e_vignette:50 darkens the corners, not the centre", async () => {
    const { at } = await pixels((await get("e_vignette:50", "grey.jpg")).rawPayload);
    expect((at(60, 40)[0] as number) - 200).toBeLessThanOrEqual(2);
    expect(at(0, 0)[0]).toBeLessThan(150);
  });

  it("e_blur:1000 renders at the image's size", async () => {
    const res = await get("e_blur:1000", "photo.png");
    expect(res.statusCode).toBe(200);
    expect((await pixels(res.rawPayload)).info).toMatchObject({ width: 240, height: 160 });
  });

  it("refuses amounts outside the documented ranges, and an effect twice, naming the directive", async () => {
    for (const transform of [
      "e_brightness:-100",
      "e_brightness:101",
      "e_sharpen:2001",
      "e_unsharp_mask:0",
      "e_blur:0.2",
      "e_blur:1000.01",
      "e_blur:1.234",
      "e_hue:181",
      "e_gamma:-51",
      "e_vignette:101",
      "e_improve:kitchen",
      "e_grayscale:5",
      "e_sparkle",
      "o_101",
    ]) {
      const res = await get(transform, "photo.png");
      expect(res.statusCode, transform).toBe(400);
      expect(res.json(), transform).toEqual({
        error: "Validation failed",
        message: expect.stringContaining(transform),
      });
    }
    const twice = await get("e_brightness:10,e_brightness:20", "photo.png");
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toMatch(/brightness/);
  });
});

describe("o_ (base opacity) through the delivery host", () => {
  it("o_50 of a JPEG without f_ is a JPEG faded halfway to white", async () => {
    const res = await get("o_50", "grey.jpg");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    const { info, at } = await pixels(res.rawPayload);
    expect(info.channels).toBe(3);
    // 200 at half opacity over white: 227.5.
    expect(Math.abs((at(60, 40)[0] as number) - 227.5)).toBeLessThanOrEqual(3);
  });

  it("o_50,f_png keeps the transparency: alpha halved, colour kept", async () => {
    const res = await get("o_50,f_png", "grey.jpg");
    expect(res.headers["content-type"]).toBe("image/png");
    const [r, , , alpha] = (await pixels(res.rawPayload)).at(60, 40) as [number, number, number, number];
    expect(Math.abs(r - 200)).toBeLessThanOrEqual(2);
    expect(Math.abs(alpha - 127.5)).toBeLessThanOrEqual(1);
  });

  it("o_ of a PNG stays a PNG with its alpha multiplied", async () => {
    const res = await get("o_25", "red.png");
    expect(res.headers["content-type"]).toBe("image/png");
    const [r, , , alpha] = (await pixels(res.rawPayload)).at(5, 5) as [number, number, number, number];
    expect(r).toBe(220);
    expect(Math.abs(alpha - 63.75)).toBeLessThanOrEqual(1);
  });
});
