// HEIC and AVIF originals through the app: sniffed, stored byte for byte with their size in the
// record, and rendered by delivery (f_webp, f_auto, no f) and at store time. HEIC is decoded by
// libheif-js in a worker (src/media/heif/); AVIF by libvips.
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashStream } from "../src/content-hash/index.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { directUpload, pathOf, uploaded } from "./uploads-helpers.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/heif/${name}`, import.meta.url));
const heic = fixture("photo-1280x800.heic");

let t: TestApp;
let ws: string;

beforeAll(async () => {
  t = await createTestApp();
  ws = t.workspace.workspaceNo;
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers });

describe("HEIC uploads", () => {
  it("are stored as they are, described as image/heic with the container's width and height", async () => {
    // Browsers often send a HEIC with no type at all: the bytes decide.
    const body = uploaded(
      await directUpload(t, { file_name: "IMG_0001.HEIC", folder: "phone" }, { content: heic, type: "" }),
    );
    expect(body).toMatchObject({
      mime_type: "image/heic",
      format: "heic",
      extension: "heic",
      width: 1280,
      height: 800,
      size: heic.length,
    });
    expect(body.hash).toBe((await hashStream([heic])).hash);
    const original = await get(pathOf(body.url));
    expect(original.statusCode).toBe(200);
    expect(original.headers["content-type"]).toBe("image/heic");
    expect(Buffer.compare(original.rawPayload, heic)).toBe(0);
  });

  it("render every delivery transform: w_100,f_webp, f_auto for an AVIF browser, and JPEG without f", async () => {
    uploaded(await directUpload(t, { file_name: "beach.heic", folder: "d" }, { content: heic }));
    const webp = await get(`/assets/${ws}/w_100,f_webp/d/beach.heic`);
    expect(webp.statusCode).toBe(200);
    expect(webp.headers["content-type"]).toBe("image/webp");
    expect(await sharp(webp.rawPayload).metadata()).toMatchObject({ format: "webp", width: 100, height: 63 });

    const avif = await get(`/assets/${ws}/w_200,f_auto/d/beach.heic`, {
      accept: "image/avif,image/webp,*/*",
    });
    expect(avif.statusCode).toBe(200);
    expect(avif.headers["content-type"]).toBe("image/avif");
    expect(avif.headers.vary).toContain("Accept");

    const plain = await get(`/assets/${ws}/w_100/d/beach.heic`);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-type"]).toBe("image/jpeg");
    expect(await sharp(plain.rawPayload).metadata()).toMatchObject({ format: "jpeg", width: 100 });
  });

  it("take a store-time transform: the stored file is the output, not HEIC", async () => {
    const body = uploaded(
      await directUpload(t, { file_name: "small.heic", transform: "w_320,f_webp" }, { content: heic }),
    );
    expect(body).toMatchObject({
      mime_type: "image/webp",
      format: "webp",
      width: 320,
      height: 200,
      name: "small.webp",
    });
    const served = await get(pathOf(body.url));
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: "webp",
      width: 320,
      height: 200,
    });
  });

  it("keep a truncated HEIC as bytes when nothing asks to decode it, and refuse to render it", async () => {
    const truncated = heic.subarray(0, 9000);
    const body = uploaded(
      await directUpload(t, { file_name: "cut.heic", folder: "bad" }, { content: truncated }),
    );
    expect(body).toMatchObject({ mime_type: "image/heic", width: null, height: null });
    const variant = await get(`/assets/${ws}/w_100,f_webp/bad/cut.heic`);
    expect(variant.statusCode).toBe(400);
    // The envelope every undecodable image gets from delivery.
    expect(variant.json()).toEqual({
      error: "Validation failed",
      message: expect.stringMatching(/^image could not be decoded: /),
    });
  });
});

describe("AVIF uploads", () => {
  it("are accepted as originals and transformed", async () => {
    const avif = fixture("photo-64x48.avif");
    const body = uploaded(await directUpload(t, { file_name: "a.avif", folder: "av" }, { content: avif }));
    expect(body).toMatchObject({
      mime_type: "image/avif",
      format: "avif",
      width: 64,
      height: 48,
      size: avif.length,
    });
    const variant = await get(`/assets/${ws}/w_32,f_webp/av/a.avif`);
    expect(variant.statusCode).toBe(200);
    expect(await sharp(variant.rawPayload).metadata()).toMatchObject({
      format: "webp",
      width: 32,
      height: 24,
    });
    const stored = uploaded(
      await directUpload(t, { file_name: "b.avif", transform: "w_16,f_png" }, { content: avif }),
    );
    expect(stored).toMatchObject({ mime_type: "image/png", width: 16, height: 12 });
  });
});
