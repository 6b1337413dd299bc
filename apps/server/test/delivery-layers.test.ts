// Layers through the delivery host (issue #32): text and image layers, placement, opacity, blend,
// underlay, order, clipping, dpr, SVG layers, who may be composited, the cache key following the
// layer file's content, and the bounds. Every rendering case checks pixels, not only the status.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signDelivery } from "../src/signing/delivery-signature.js";
import { flatPixels, near } from "./support/flat-pixels.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
let ws: string;

const WHITE = [255, 255, 255];
const BLUE = [0, 0, 255];
const GREEN = [0, 255, 0];
const RED = [255, 0, 0];

async function upload(name: string, content: Buffer, fields: Record<string, string> = {}) {
  return uploaded(await directUpload(t, { file_name: name, folder: "layers", ...fields }, { content }));
}

const CIRCLE_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><circle cx="25" cy="25" r="25" fill="#00ff00"/></svg>',
);

let privateBase: { id: string; path: string };

beforeAll(async () => {
  t = await createTestApp();
  ws = t.workspace.workspaceNo;
  await upload("base.png", await solid(400, 300, { r: 255, g: 255, b: 255 }));
  await upload("base.jpg", await solid(400, 300, { r: 255, g: 255, b: 255 }, "jpeg"));
  await upload("blue.png", await solid(40, 40, { r: 0, g: 0, b: 255 }));
  await upload("green.png", await solid(40, 40, { r: 0, g: 255, b: 0 }));
  await upload("circle.svg", CIRCLE_SVG);
  await upload("secret.png", await solid(40, 40, { r: 255, g: 0, b: 0 }), { is_private: "true" });
  privateBase = await upload("private-base.png", await solid(400, 300, { r: 255, g: 255, b: 255 }), {
    is_private: "true",
  });
  // Left half transparent, right half opaque red.
  const data = Buffer.alloc(400 * 300 * 4);
  for (let i = 0; i < 400 * 300; i++) if (i % 400 >= 200) data.set([255, 0, 0, 255], i * 4);
  await upload(
    "holes.png",
    await sharp(data, { raw: { width: 400, height: 300, channels: 4 } })
      .png()
      .toBuffer(),
  );
});
afterAll(async () => {
  await t?.close();
});

const get = (transform: string, file = "base.png", query = "") =>
  t.app.inject({ method: "GET", url: `/assets/${ws}/${transform}/layers/${file}${query}` });

async function render(transform: string, file = "base.png", query = "") {
  const res = await get(transform, file, query);
  expect(res.statusCode, `${transform}: ${res.body.slice(0, 300)}`).toBe(200);
  return { res, ...(await flatPixels(res.rawPayload)) };
}

const isRed = (pixel: number[]) => near(pixel, RED, 60);
const isWhite = (pixel: number[]) => near(pixel, WHITE, 2);
/** Ink of any colour: a pixel that is not the white base. */
const inked = (pixel: number[]) => !isWhite(pixel);

describe("text layers", () => {
  it("draws the text in its colour at its anchor, and only there", async () => {
    const { count, width, height } = await render(
      "l_text:arial_60_bold:MMM,co_ff0000,tp_north-west,fl_layer_apply",
    );
    expect([width, height]).toEqual([400, 300]);
    expect(count(0, 0, 200, 100, isRed)).toBeGreaterThan(500);
    expect(count(0, 100, 400, 300, inked)).toBe(0);
    expect(count(200, 0, 400, 300, inked)).toBe(0);
  });

  it("co_rgb: is the same colour as co_, and the default colour is black", async () => {
    const rgb = await render("l_text:arial_60_bold:MMM,co_rgb:FF0000,tp_north-west,fl_layer_apply");
    expect(rgb.count(0, 0, 200, 100, isRed)).toBeGreaterThan(500);
    const plain = await render("l_text:arial_60_bold:MMM,tp_north-west,fl_layer_apply");
    expect(plain.count(0, 0, 200, 100, (pixel) => near(pixel, [0, 0, 0], 40))).toBeGreaterThan(500);
  });

  it("draws markup as the characters it is: a span is not a colour, &lt; is four characters", async () => {
    const span = await render(
      `l_text:arial_20:${encodeURIComponent('<span foreground="red">x</span>')},tp_north-west,fl_layer_apply`,
    );
    expect(span.count(0, 0, 400, 60, isRed)).toBe(0);
    const inkWidth = async (text: string) => {
      const { count } = await render(
        `l_text:arial_20:${encodeURIComponent(text)},tp_north-west,fl_layer_apply`,
      );
      let right = 0;
      for (let x = 0; x < 400; x++) if (count(x, 0, x + 1, 40, inked) > 0) right = x;
      return right;
    };
    const x = await inkWidth("x");
    // The whole tag is drawn: far wider than the one x markup would have left.
    expect(await inkWidth('<span foreground="red">x</span>')).toBeGreaterThan(x * 10);
    expect(await inkWidth("&lt;")).toBeGreaterThan((await inkWidth("<")) * 2);
  });

  it("keeps a JPEG base opaque: f_auto for a client without AVIF/WebP stays a JPEG", async () => {
    const res = await get("l_text:arial_40:Hi,fl_layer_apply,f_auto", "base.jpg");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
  });

  it("refuses a script the bundled fonts cannot draw, naming it", async () => {
    const res = await get(`l_text:arial_20:${encodeURIComponent("สวัสดี")},fl_layer_apply`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Thai/);
  });

  it("bounds: 201 characters, size 513 and a ninth layer are refused", async () => {
    const long = await get(`l_text:arial_20:${"a".repeat(201)},fl_layer_apply`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/200/);
    const big = await get("l_text:arial_513:a,fl_layer_apply");
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toMatch(/512/);
    const nine = await get(Array.from({ length: 9 }, () => "l_text:arial_10:a,fl_layer_apply").join(","));
    expect(nine.statusCode).toBe(400);
    expect(nine.json().message).toMatch(/8/);
    const eight = await get(Array.from({ length: 8 }, () => "l_text:arial_10:a,fl_layer_apply").join(","));
    expect(eight.statusCode).toBe(200);
  });

  it("refuses, before drawing it, text whose bitmap would pass the layer pixel limit", async () => {
    const res = await get(`l_text:arial_512_bold:${"W".repeat(200)},fl_layer_apply`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/pixel/);
  });
});

describe("image layers", () => {
  it("puts the layer's top-left corner at lx/ly", async () => {
    const { at } = await render("l_image:layers%2Fblue.png,lx_100,ly_50,fl_layer_apply");
    expect(near(at(101, 51), BLUE)).toBe(true);
    expect(near(at(138, 88), BLUE)).toBe(true);
    expect(near(at(98, 48), WHITE)).toBe(true);
    expect(near(at(141, 91), WHITE)).toBe(true);
  });

  it("tp_south-east (and tp_se) lands in the bottom-right corner; x/y move it right and down", async () => {
    for (const tp of ["south-east", "se"]) {
      const { at } = await render(`l_image:layers%2Fblue.png,tp_${tp},fl_layer_apply`);
      expect(near(at(399, 299), BLUE)).toBe(true);
      expect(near(at(361, 261), BLUE)).toBe(true);
      expect(near(at(358, 258), WHITE)).toBe(true);
    }
    const moved = await render("l_image:layers%2Fblue.png,tp_north-west,x_20,y_10,fl_layer_apply");
    expect(near(moved.at(21, 11), BLUE)).toBe(true);
    expect(near(moved.at(18, 8), WHITE)).toBe(true);
    const centred = await render("l_image:layers%2Fblue.png,fl_layer_apply");
    expect(near(centred.at(200, 150), BLUE)).toBe(true);
    expect(near(centred.at(178, 150), WHITE)).toBe(true);
  });

  it("ip_ chooses which point of the layer sits on the anchor", async () => {
    // The layer's north-west corner on the image's centre.
    const { at } = await render("l_image:layers%2Fblue.png,tp_center,ip_nw,fl_layer_apply");
    expect(near(at(201, 151), BLUE)).toBe(true);
    expect(near(at(198, 148), WHITE)).toBe(true);
  });

  it("lw alone keeps the ratio; lw and lh together set both", async () => {
    const one = await render("l_image:layers%2Fblue.png,lw_80,tp_north-west,fl_layer_apply");
    expect(near(one.at(78, 78), BLUE)).toBe(true);
    expect(near(one.at(82, 82), WHITE)).toBe(true);
    const both = await render("l_image:layers%2Fblue.png,lw_100,lh_20,tp_north-west,fl_layer_apply");
    expect(near(both.at(98, 18), BLUE)).toBe(true);
    expect(near(both.at(98, 22), WHITE)).toBe(true);
  });

  it("e_ inside a block applies to the layer, e_ outside to the base before its layers", async () => {
    const { at } = await render(
      "l_image:layers%2Fblue.png,e_invert,tp_north-west,fl_layer_apply,e_grayscale",
      "holes.png",
    );
    // The layer inverted (blue → yellow), over a base made grey first.
    expect(near(at(10, 10), [255, 255, 0])).toBe(true);
    const [r = 0, g = 0, b = 0] = at(300, 150);
    expect(Math.abs(r - g) <= 3 && Math.abs(g - b) <= 3).toBe(true);
    const layerOnly = await render(
      "l_image:layers%2Fblue.png,e_invert,tp_north-west,fl_layer_apply",
      "holes.png",
    );
    expect(near(layerOnly.at(300, 150), RED)).toBe(true);
  });

  it("o_50 halves the layer's opacity", async () => {
    const { at } = await render("l_image:layers%2Fblue.png,o_50,fl_layer_apply");
    expect(near(at(200, 150), [128, 128, 255], 4)).toBe(true);
  });

  it("bm_multiply multiplies: blue over red is black", async () => {
    const { at } = await render(
      "l_image:layers%2Fblue.png,lx_300,ly_100,bm_multiply,fl_layer_apply",
      "holes.png",
    );
    expect(near(at(320, 120), [0, 0, 0])).toBe(true);
  });

  it("an underlay shows through the base's transparent pixels only", async () => {
    const { at } = await render(
      "l_image:layers%2Fgreen.png,l_type:underlay,lw_400,lh_300,fl_layer_apply",
      "holes.png",
    );
    expect(near(at(100, 150), GREEN)).toBe(true);
    expect(near(at(300, 150), RED)).toBe(true);
  });

  it("an underlay beneath a JPEG (no transparent pixels) leaves it as it was", async () => {
    const { count } = await render("l_image:layers%2Fblue.png,l_type:underlay,fl_layer_apply", "base.jpg");
    expect(count(0, 0, 400, 300, (pixel) => !near(pixel, WHITE, 6))).toBe(0);
  });

  it("several layers apply in written order: the later one is on top", async () => {
    const greenLast = await render(
      "l_image:layers%2Fblue.png,fl_layer_apply,l_image:layers%2Fgreen.png,fl_layer_apply",
    );
    expect(near(greenLast.at(200, 150), GREEN)).toBe(true);
    const blueLast = await render(
      "l_image:layers%2Fgreen.png,fl_layer_apply,l_image:layers%2Fblue.png,fl_layer_apply",
    );
    expect(near(blueLast.at(200, 150), BLUE)).toBe(true);
  });

  it("a layer partly or wholly outside the base is clipped, not an error", async () => {
    const partly = await render("l_image:layers%2Fblue.png,lx_-20,ly_-20,fl_layer_apply");
    expect(near(partly.at(5, 5), BLUE)).toBe(true);
    expect(near(partly.at(25, 25), WHITE)).toBe(true);
    const outside = await render("l_image:layers%2Fblue.png,lx_5000,ly_5000,fl_layer_apply");
    expect(outside.count(0, 0, 400, 300, inked)).toBe(0);
  });

  it("dpr multiplies the layer's size and offsets", async () => {
    const { at } = await render("dpr_2,l_image:layers%2Fblue.png,lw_20,lx_10,ly_10,fl_layer_apply");
    expect(near(at(21, 21), BLUE)).toBe(true);
    expect(near(at(58, 58), BLUE)).toBe(true);
    expect(near(at(18, 18), WHITE)).toBe(true);
    expect(near(at(62, 62), WHITE)).toBe(true);
  });

  it("composites after the base's resize: the layer is placed on the resized image", async () => {
    const { at, width, height } = await render(
      "w_200,l_image:layers%2Fblue.png,tp_south-east,fl_layer_apply",
    );
    expect([width, height]).toEqual([200, 150]);
    expect(near(at(199, 149), BLUE)).toBe(true);
    expect(near(at(158, 108), WHITE)).toBe(true);
  });

  it("rasterises an SVG layer at lw", async () => {
    const { at } = await render("l_image:layers%2Fcircle.svg,lw_100,tp_north-west,fl_layer_apply");
    expect(near(at(50, 50), GREEN, 20)).toBe(true);
    expect(near(at(3, 3), WHITE, 20)).toBe(true);
    expect(near(at(50, 97), GREEN, 40)).toBe(true);
  });
});

describe("who may be a layer", () => {
  it("a private file is refused exactly like a missing one, without saying it exists", async () => {
    const secret = await get("l_image:layers%2Fsecret.png,fl_layer_apply");
    const missing = await get("l_image:layers%2Fnothing.png,fl_layer_apply");
    expect(secret.statusCode).toBe(400);
    expect(missing.statusCode).toBe(400);
    expect(secret.json().message.replace("secret", "X")).toBe(missing.json().message.replace("nothing", "X"));
    expect(secret.rawPayload.length).toBe(missing.rawPayload.length + "secret".length - "nothing".length);
  });

  it("a signed URL authorises its own file, not a private file its layer names", async () => {
    const sign = (transform: string) =>
      `?${signDelivery(
        t.config.urlSigning,
        { workspaceNo: ws, fileId: privateBase.id, path: privateBase.path, transform },
        new Date(Date.now() + 60_000),
      )}`;
    const withSecret = "l_image:layers%2Fsecret.png,fl_layer_apply";
    const refused = await get(withSecret, "private-base.png", sign(withSecret));
    expect(refused.statusCode).toBe(400);
    const withPublic = "l_image:layers%2Fblue.png,fl_layer_apply";
    const { at } = await render(withPublic, "private-base.png", sign(withPublic));
    expect(near(at(200, 150), BLUE)).toBe(true);
  });

  it("a file of another workspace is not found", async () => {
    const other = uploaded(
      await directUpload(
        t,
        { file_name: "elsewhere.png", folder: "layers" },
        { content: await solid(40, 40, { r: 0, g: 0, b: 255 }) },
        { key: t.keys.private2 },
      ),
    );
    expect(other.path).toBe("layers/elsewhere.png");
    expect((await get("l_image:layers%2Felsewhere.png,fl_layer_apply")).statusCode).toBe(400);
  });

  it("an SVG layer that points outside itself is refused", async () => {
    await upload(
      "peek.svg",
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><image href="/etc/hostname" width="50" height="50"/></svg>',
      ),
    );
    const res = await get("l_image:layers%2Fpeek.svg,fl_layer_apply");
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/outside itself/);
  });

  it("a layer that is not an image is refused", async () => {
    await upload("notes.txt", Buffer.from("just text"));
    const res = await get("l_image:layers%2Fnotes.txt,fl_layer_apply");
    expect(res.statusCode).toBe(400);
  });
});

describe("the cache", () => {
  it("follows the layer file's content: replacing the logo makes a new variant", async () => {
    const logo = await upload("logo.png", await solid(40, 40, { r: 0, g: 0, b: 255 }));
    const transform = "l_image:layers%2Flogo.png,fl_layer_apply";
    const first = await render(transform);
    expect(first.res.headers["x-cache"]).toBe("MISS");
    expect(near(first.at(200, 150), BLUE)).toBe(true);
    const again = await render(transform);
    expect(again.res.headers["x-cache"]).toBe("HIT");

    // Replace it: the new logo is uploaded beside it and takes its name.
    const next = await upload("logo-next.png", await solid(40, 40, { r: 0, g: 255, b: 0 }));
    const rename = (fileNo: string, name: string) =>
      t.app.inject({
        method: "PATCH",
        url: `/api/v1/files/${fileNo}/rename`,
        headers: { "x-api-key": t.keys.private },
        payload: { name },
      });
    expect((await rename(logo.file_no, "logo-old.png")).statusCode).toBe(200);
    expect((await rename(next.file_no, "logo.png")).statusCode).toBe(200);
    const replaced = await render(transform);
    expect(replaced.res.headers["x-cache"]).toBe("MISS");
    expect(near(replaced.at(200, 150), GREEN)).toBe(true);
    expect(replaced.res.headers.etag).not.toBe(first.res.headers.etag);
  });

  it("a layer file made private is refused at once, though its variant was cached", async () => {
    const mark = await upload("mark.png", await solid(40, 40, { r: 0, g: 0, b: 255 }));
    const transform = "l_image:layers%2Fmark.png,fl_layer_apply";
    expect((await get(transform)).statusCode).toBe(200);
    expect((await get(transform)).headers["x-cache"]).toBe("HIT");
    const patched = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/files/${mark.file_no}`,
      headers: { "x-api-key": t.keys.private },
      payload: { is_private: true },
    });
    expect(patched.statusCode).toBe(200);
    expect((await get(transform)).statusCode).toBe(400);
  });
});
