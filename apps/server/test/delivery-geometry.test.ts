// Geometry and output through the delivery host (issue #32): no enlargement by default
// (fl_upscale), fractions, dpr, ar with both sides, z, ps, r_auto/portrait/landscape, f_tiff,
// q_auto presets, and w_auto from client hints / User-Agent / Save-Data with Vary and one cache
// entry per width step. Every case checks the output's pixels or size, not only the status.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/index.js";
import { halves, orientedJpeg, pattern } from "./support/test-images.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
let ws: string;

const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const BLUE = [0, 0, 255];
const WHITE = [255, 255, 255];

/** 400×400: top-left red, top-right green, bottom-left blue, bottom-right white. */
function quadrants(size = 400): Promise<Buffer> {
  const data = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const top = y < size / 2;
      const left = x < size / 2;
      data.set(top ? (left ? RED : GREEN) : left ? BLUE : WHITE, (y * size + x) * 3);
    }
  }
  return sharp(data, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

async function upload(name: string, content: Buffer) {
  uploaded(await directUpload(t, { file_name: name, folder: "geo" }, { content }));
}

beforeAll(async () => {
  t = await createTestApp();
  ws = t.workspace.workspaceNo;
  await upload("quad.png", await quadrants());
  await upload("wide.png", await halves(400, 300)); // left red, right blue
  await upload("small.png", await halves(300, 300));
  await upload(
    "photo.jpg",
    await sharp(await pattern(1600, 1000))
      .jpeg()
      .toBuffer(),
  );
  await upload("tall.png", await halves(300, 400, "horizontal")); // top red, bottom blue
  await upload("exif6.jpg", await orientedJpeg(300, 200, 6)); // shown 200×300
});
afterAll(async () => {
  await t?.close();
});

const get = (transform: string, file: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url: `/assets/${ws}/${transform}/geo/${file}`, headers });

async function render(transform: string, file: string, headers: Record<string, string> = {}) {
  const res = await get(transform, file, headers);
  expect(res.statusCode, `${transform}: ${res.body.slice(0, 200)}`).toBe(200);
  const image = sharp(res.rawPayload);
  const { width, height, format } = await image.metadata();
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [
    ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
  ];
  return { res, width, height, format, at };
}

const size = async (transform: string, file: string, headers: Record<string, string> = {}) => {
  const { width, height } = await render(transform, file, headers);
  return [width, height];
};

/** Each channel within 40 of the expected colour (resampling softens edges a little). */
const near = (actual: number[], expected: number[]) =>
  actual.every((value, index) => Math.abs(value - (expected[index] as number)) <= 40);

describe("no enlargement by default", () => {
  it.each([
    ["w_1920", "photo.jpg", [1600, 1000]],
    ["w_1920,fl_upscale", "photo.jpg", [1920, 1200]],
    ["h_2000", "photo.jpg", [1600, 1000]],
    ["w_800", "photo.jpg", [800, 500]],
    ["w_400,h_400,c_fill", "small.png", [300, 300]],
    ["w_400,h_400,c_fill,fl_upscale", "small.png", [400, 400]],
    ["w_1920,h_1080,c_fill", "photo.jpg", [1600, 900]],
    ["w_2000,h_2000,c_fit", "photo.jpg", [1600, 1000]],
    ["w_2000,h_2000,c_fit,fl_upscale", "photo.jpg", [2000, 1250]],
    ["w_2000,h_2000,c_limit,fl_upscale", "photo.jpg", [1600, 1000]],
    ["w_800,h_800,c_pad", "wide.png", [400, 400]],
    ["w_800,h_800,c_pad,fl_upscale", "wide.png", [800, 800]],
    ["w_800,h_400,c_scale", "wide.png", [400, 200]], // the 2:1 box, shrunk until the source fills it
    ["w_1000,h_100,c_crop", "wide.png", [400, 100]],
  ])("%s of %s is %j", async (transform, file, expected) => {
    expect(await size(transform, file)).toEqual(expected);
  });

  it("a pad box shrunk to the source pads without scaling it", async () => {
    const { at } = await render("w_800,h_800,c_pad,bg_white", "wide.png");
    expect(near(at(200, 20), WHITE)).toBe(true); // padding above the 400×300 image
    expect(near(at(20, 200), RED)).toBe(true);
  });
});

describe("sizes", () => {
  it.each([
    ["w_0.5", "quad.png", [200, 200]],
    ["h_0.75", "wide.png", [300, 225]],
    ["w_0.5,h_0.5,c_fill", "wide.png", [200, 150]],
    ["w_100,dpr_2", "wide.png", [200, 150]],
    ["w_100,h_50,c_fill,dpr_1.5", "wide.png", [150, 75]],
    ["w_0.25,dpr_2", "wide.png", [200, 150]],
    ["w_300,dpr_10", "wide.png", [400, 300]], // dpr cannot enlarge either
    ["w_200,h_100,ar_1:1", "wide.png", [200, 100]], // ar ignored with both sides
    ["w_200,ar_1:1", "wide.png", [200, 200]],
  ])("%s of %s is %j", async (transform, file, expected) => {
    expect(await size(transform, file)).toEqual(expected);
  });

  it("dpr with fl_upscale is bounded by the pixel limits (400, not 5xx)", async () => {
    const res = await get("w_8192,dpr_10,fl_upscale", "wide.png");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: expect.anything() });
  });
});

describe("zoom", () => {
  it("z with c_crop magnifies the window about the p anchor, same output size", async () => {
    const plain = await render("w_200,h_200,c_crop,p_tl", "quad.png");
    expect([plain.width, plain.height]).toEqual([200, 200]);
    const zoomed = await render("z_2,w_200,h_200,c_crop,p_tl", "quad.png");
    expect([zoomed.width, zoomed.height]).toEqual([200, 200]);
    // The window is the top-left 100×100, all red, scaled ×2.
    expect(near(zoomed.at(190, 190), RED)).toBe(true);
    const centred = await render("z_2,w_200,h_200,c_crop", "quad.png");
    expect(near(centred.at(10, 10), RED)).toBe(true);
    expect(near(centred.at(190, 190), WHITE)).toBe(true);
  });

  it("z with c_fill keeps the fill's size and zooms about the top anchor", async () => {
    const { width, height, at } = await render("z_2,w_200,h_200,c_fill,p_t", "quad.png");
    expect([width, height]).toEqual([200, 200]);
    // The source's top-centre 200×200: red on the left, green on the right, nothing below.
    expect(near(at(20, 180), RED)).toBe(true);
    expect(near(at(180, 180), GREEN)).toBe(true);
  });

  it("z with c_fit, c_limit or one side magnifies the whole image about the anchor", async () => {
    const fit = await render("z_4,w_400,h_400,c_fit,p_br", "quad.png");
    expect([fit.width, fit.height]).toEqual([400, 400]);
    expect(near(fit.at(5, 5), WHITE)).toBe(true);
    const oneSide = await render("z_2,w_200,p_tl", "quad.png");
    expect([oneSide.width, oneSide.height]).toEqual([200, 200]);
    expect(near(oneSide.at(195, 195), RED)).toBe(true);
    const alone = await render("z_2", "quad.png");
    expect([alone.width, alone.height]).toEqual([400, 400]);
    expect(near(alone.at(5, 5), RED)).toBe(true);
    expect(near(alone.at(395, 5), GREEN)).toBe(true);
    expect(near(alone.at(5, 395), BLUE)).toBe(true);
  });

  it("z about a ps point", async () => {
    const { at } = await render("z_4,ps_300,300", "quad.png");
    expect(near(at(5, 5), WHITE)).toBe(true);
    expect(near(at(395, 395), WHITE)).toBe(true);
  });
});

describe("position strategy", () => {
  it("ps_{x},{y} centres the crop window on a source point, clamped inside", async () => {
    const white = await render("w_100,h_100,c_crop,ps_300,300", "quad.png");
    expect([white.width, white.height]).toEqual([100, 100]);
    expect(near(white.at(5, 5), WHITE) && near(white.at(95, 95), WHITE)).toBe(true);
    const corner = await render("w_100,h_100,c_crop,ps_0,0", "quad.png");
    expect(near(corner.at(95, 95), RED)).toBe(true);
    const fill = await render("w_200,h_100,c_fill,ps_0,399", "quad.png");
    expect([fill.width, fill.height]).toEqual([200, 100]);
    expect(near(fill.at(100, 95), BLUE) || near(fill.at(100, 95), WHITE)).toBe(true);
    expect(near(fill.at(100, 5), RED) || near(fill.at(100, 5), GREEN)).toBe(false);
  });

  it("ps_center is the centre; ps_entropy and ps_attention crop like p_", async () => {
    const centre = await render("w_200,h_200,c_crop,ps_center", "quad.png");
    expect(near(centre.at(5, 5), RED) && near(centre.at(195, 195), WHITE)).toBe(true);
    expect(await size("w_100,h_100,c_fill,ps_entropy", "photo.jpg")).toEqual([100, 100]);
    expect(await size("w_100,h_60,c_crop,ps_attention", "photo.jpg")).toEqual([100, 60]);
  });
});

describe("rotation modes", () => {
  it("r_portrait turns a wide image a quarter clockwise; r_landscape leaves it", async () => {
    const turned = await render("r_portrait", "wide.png");
    expect([turned.width, turned.height]).toEqual([300, 400]);
    expect(near(turned.at(150, 20), RED)).toBe(true); // left half is now on top
    expect(near(turned.at(150, 380), BLUE)).toBe(true);
    expect(await size("r_portrait,w_150", "wide.png")).toEqual([150, 200]);
    const kept = await render("r_landscape,w_200", "wide.png");
    expect([kept.width, kept.height]).toEqual([200, 150]);
    expect(near(kept.at(10, 75), RED)).toBe(true);
  });

  it("r_landscape turns a tall image; r_portrait leaves it", async () => {
    const turned = await render("r_landscape", "tall.png");
    expect([turned.width, turned.height]).toEqual([400, 300]);
    expect(near(turned.at(380, 150), RED)).toBe(true); // top is now on the right
    expect(await size("r_portrait", "tall.png")).toEqual([300, 400]);
  });

  it("r_auto is the EXIF orientation, which every render already applies", async () => {
    expect(await size("r_auto,w_100", "exif6.jpg")).toEqual([100, 150]);
    expect(await size("w_100", "exif6.jpg")).toEqual([100, 150]);
  });
});

describe("output", () => {
  it("f_tiff writes a TIFF, served as image/tiff from the render and the cache", async () => {
    const first = await render("w_100,f_tiff", "wide.png");
    expect(first.res.headers["content-type"]).toBe("image/tiff");
    expect(first.format).toBe("tiff");
    expect([first.width, first.height]).toEqual([100, 75]);
    const again = await get("w_100,f_tiff", "wide.png");
    expect(again.headers["x-cache"]).toBe("HIT");
    expect(again.headers["content-type"]).toBe("image/tiff");
  });

  it("q_auto presets order by size: best > good > eco > low", async () => {
    const bytes = async (q: string) => (await render(`w_800,q_${q}`, "photo.jpg")).res.rawPayload.length;
    const [best, good, eco, low] = [
      await bytes("auto:best"),
      await bytes("auto:good"),
      await bytes("auto:eco"),
      await bytes("auto:low"),
    ];
    expect(best).toBeGreaterThan(good);
    expect(good).toBeGreaterThan(eco);
    expect(eco).toBeGreaterThan(low);
    expect((await render("w_800,q_auto:best,f_webp", "photo.jpg")).format).toBe("webp");
  });
});

describe("w_auto", () => {
  const IPHONE =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
  const DEFAULT_VARY = "Sec-CH-Width, Width, Sec-CH-Viewport-Width, Viewport-Width, User-Agent, Save-Data";

  it("takes the User-Agent's documented width, with Vary and Accept-CH", async () => {
    const { res, width } = await render("w_auto", "photo.jpg", { "user-agent": IPHONE });
    expect(width).toBe(1080);
    expect(res.headers.vary).toBe(DEFAULT_VARY);
    expect(res.headers["accept-ch"]).toBe("Sec-CH-Width, Sec-CH-Viewport-Width, Sec-CH-DPR");
    expect((await render("w_auto", "photo.jpg", { "user-agent": IPHONE, "save-data": "on" })).width).toBe(
      480,
    );
    expect((await render("w_auto", "photo.jpg", { "user-agent": "curl/8" })).width).toBe(720);
  });

  it("prefers client hints, rounded up to a step; Vary names only what was read", async () => {
    const hinted = await render("w_auto", "photo.jpg", { "sec-ch-width": "500", "user-agent": IPHONE });
    expect(hinted.width).toBe(720);
    expect(hinted.res.headers.vary).toBe("Sec-CH-Width");
    const viewport = await render("w_auto", "photo.jpg", {
      "sec-ch-viewport-width": "400",
      "sec-ch-dpr": "2",
    });
    expect(viewport.width).toBe(1080);
    expect(viewport.res.headers.vary).toBe("Sec-CH-Width, Width, Sec-CH-Viewport-Width, Sec-CH-DPR");
  });

  it("one cache entry per width step, shared with the explicit width", async () => {
    const first = await get("w_auto,q_71", "photo.jpg", { "sec-ch-width": "1000" });
    expect(first.headers["x-cache"]).toBe("MISS");
    const otherUa = await get("w_auto,q_71", "photo.jpg", { "user-agent": IPHONE });
    expect(otherUa.headers["x-cache"]).toBe("HIT"); // also 1080
    const explicit = await get("w_1080,q_71", "photo.jpg");
    expect(explicit.headers["x-cache"]).toBe("HIT");
    expect(explicit.headers.vary).toBeUndefined();
  });

  it("keeps Vary: Accept for f_auto beside the width headers", async () => {
    const res = await get("w_auto,f_auto", "photo.jpg", { "sec-ch-width": "300", accept: "image/webp" });
    expect(res.headers["content-type"]).toBe("image/webp");
    expect(res.headers.vary).toBe("Accept, Sec-CH-Width");
    expect((await sharp(res.rawPayload).metadata()).width).toBe(320);
  });

  it("never enlarges: a huge hint asks for the largest step, the source caps it", async () => {
    expect((await render("w_auto", "photo.jpg", { "sec-ch-width": "1000000000000" })).width).toBe(1600);
    expect((await render("w_auto", "wide.png", { "sec-ch-width": "1920" })).width).toBe(400);
  });

  it.each<Record<string, string>>([
    { "sec-ch-width": "-800" },
    { width: "abc" },
    { "sec-ch-width": "1e400" },
    { "sec-ch-viewport-width": "NaN", "sec-ch-dpr": "Infinity" },
    { "user-agent": `Mozilla/5.0 ${"A".repeat(10_000)}` },
  ])("ignores hostile headers %#: 200 at the fallback width", async (headers) => {
    const { width } = await render("w_auto", "photo.jpg", headers);
    expect(width).toBe(720);
  });

  it("is refused at upload, where no request has hints to read", async () => {
    const res = await directUpload(
      t,
      { file_name: "auto.jpg", transform: "w_auto" },
      {
        content: await sharp(await pattern(100, 100))
          .jpeg()
          .toBuffer(),
      },
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("w_auto");
  });
});
