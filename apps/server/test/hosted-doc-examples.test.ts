// Every image example URL of the hosted service's documentation renders on Trove (issue #32), at
// the size it implies. The list: each image URL on assets.autorender.io in the public repository
// autorenderhq/docs at 0e6f00b (.md and .mdx files; its transform segment and file path, one
// row per distinct transform), then the image examples of TRANSFORMS-HOSTED.md §2 that no URL
// there uses. Every file the URLs name is uploaded as the same 2000×1333 photo (about the
// size of the documentation's own), `logo.svg` as a small SVG, and the documented recipes
// (t_*) as named transforms; the expected sizes follow from that source and Trove's documented
// rules (docs/TRANSFORMS.md: no enlargement, fractions, ar ignored with both sides, w_auto's
// 720 fallback for a client that sends no hints and an unknown User-Agent).
//
// Left out, with the reason: video URLs (#33); `t_watermark` (no documented definition);
// `w_${optimalSize}` (a template); `h_320,w_320,c_center` (list-files API sample, c_center is
// undocumented); `w_400,h_400,cm_pad_resize,bg_white` (cm_ is a video token, §2.11); the
// fragments `lw_100,lh_200` and `x_100,y_50` (not URLs). `fo_car,w_600` is refused with a 400
// naming what fo_ supports (no object detector ships in a package: apps/server/README.md,
// "Faces"); apps/server/test/delivery-faces.test.ts checks that answer.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setNamedTransform } from "../src/transforms/named-transforms.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { pattern } from "./support/test-images.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

type Example = [transform: string, path: string, width: number, height: number];

/** From autorenderhq/docs (README.md, essentials/*.mdx, getting-started, blog, integrations). */
const DOCS_EXAMPLES: Example[] = [
  ["ar_16:9,w_360,c_fill", "doc1/skate.jpg", 360, 203],
  ["ar_16:9,w_400", "doc1/ar-juice.jpg", 400, 225],
  ["ar_1:1,w_360,c_fill,p_c", "doc1/gpose.jpg", 360, 360],
  ["ar_4:3,w_360,c_fill", "doc1/skate.jpg", 360, 270],
  ["c_crop,q_80,w_720", "docs/example/porsche.jpg", 720, 1333],
  [
    "c_crop,w_420,h_420,p_c,ps_center,l_image:logo.svg,l_type:overlay,lw_100,lh_200,ip_nw,o_100,fl_layer_apply",
    "ar-accessories.jpg",
    420,
    420,
  ],
  ["c_fill,w_200,h_200,p_c", "docs/example/porsche.jpg", 200, 200],
  ["c_fill,w_300,h_300,p_c", "doc1/porsche.jpg", 300, 300],
  ["e_auto_enhance", "doc1/porsche.jpg", 2000, 1333],
  ["e_brightness:-30", "docs/example/porsche.jpg", 2000, 1333],
  ["e_brightness:15,e_contrast:20,e_saturation:10", "docs/example/porsche.jpg", 2000, 1333],
  ["e_brightness:20", "doc1/porsche.jpg", 2000, 1333],
  ["e_contrast:25,e_brightness:10,e_saturation:15", "docs/example/porsche.jpg", 2000, 1333],
  ["e_contrast:30", "doc1/porsche.jpg", 2000, 1333],
  ["e_exposure:20,e_highlights:-30,e_shadows:25", "docs/example/porsche.jpg", 2000, 1333],
  ["e_exposure:25", "docs/example/porsche.jpg", 2000, 1333],
  ["e_fade:60", "doc1/porsche.jpg", 2000, 1333],
  ["e_grayscale,e_contrast:40,e_structure:50", "docs/example/porsche.jpg", 2000, 1333],
  ["e_grayscale", "doc1/porsche.jpg", 2000, 1333],
  ["e_saturation:-50", "docs/example/porsche.jpg", 2000, 1333],
  ["e_saturation:25,e_contrast:20,e_brightness:10", "docs/example/porsche.jpg", 2000, 1333],
  ["e_saturation:30,w_360", "doc1/porsche.jpg", 360, 240],
  ["e_saturation:30", "docs/example/porsche.jpg", 2000, 1333],
  ["e_saturation:40", "doc1/porsche.jpg", 2000, 1333],
  ["e_shadows:40", "doc1/porsche.jpg", 2000, 1333],
  ["e_sharpen", "docs/example/porsche.jpg", 2000, 1333],
  ["e_sharpen:120,e_structure:30,e_contrast:15", "docs/example/porsche.jpg", 2000, 1333],
  ["e_sharpen:150", "doc1/porsche.jpg", 2000, 1333],
  ["e_structure:50", "doc1/porsche.jpg", 2000, 1333],
  ["e_temperature:30", "doc1/porsche.jpg", 2000, 1333],
  ["e_vignette:50", "doc1/porsche.jpg", 2000, 1333],
  ["fo_face,w_300,h_300,br_150", "doc1/face-crop.jpg", 300, 300],
  ["fo_face,w_300", "doc1/face-crop.jpg", 300, 200],
  ["fo_face", "doc1/face-crop.jpg", 2000, 1333],
  ["h_300", "doc1/ar-juice.jpg", 450, 300],
  ["h_360", "doc1/earring.jpg", 540, 360],
  ["l_image:logo.svg,fl_layer_apply", "doc1/porsche.jpg", 2000, 1333],
  ["l_image:logo.svg,lw_200,lx_150,ly_150,fl_layer_apply", "doc1/porsche.jpg", 2000, 1333],
  ["l_image:logo.svg,lw_300,fl_layer_apply", "doc1/porsche.jpg", 2000, 1333],
  ["l_image:logo.svg,lw_300,tp_south-east,fl_layer_apply", "doc1/porsche.jpg", 2000, 1333],
  ["l_text:arial_100_bold_center:FIXED,lx_200,ly_200,fl_layer_apply", "doc1/porsche.jpg", 2000, 1333],
  [
    "l_text:arial_100_bold_center:LIMITED%20EDITION,co_rgb:FFD700,tp_south,fl_layer_apply",
    "doc1/porsche.jpg",
    2000,
    1333,
  ],
  ["l_text:arial_120_bold_center:PORSCHE,tp_north-west,fl_layer_apply", "doc1/porsche.jpg", 2000, 1333],
  [
    "l_text:arial_24_bold_center:Hello%20World,tp_north-east,fl_layer_apply,w_400,h_400",
    "docs/example/porsche.jpg",
    400,
    400,
  ],
  [
    "l_text:arial_32_bold_center:Sale,co_FF0000,fl_layer_apply,w_400,h_400",
    "docs/example/porsche.jpg",
    400,
    400,
  ],
  [
    "l_text:arial_72_bold:LIMITED%20EDITION,tp_north-west,fl_layer_apply,l_text:arial_44_bold:By%20Autorender,tp_south,fl_layer_apply",
    "ar-accessories.jpg",
    2000,
    1333,
  ],
  ["q_80,c_fill,w_800,h_600", "docs/example/porsche.jpg", 800, 600],
  ["q_80,w_720,c_crop", "docs/example/porsche.jpg", 720, 1333],
  ["t_product-card", "iphone-15-alt1.jpg", 400, 400],
  ["t_product-detail", "iphone-15.jpg", 1200, 800],
  ["t_product-thumbnail", "doc1/porsche.jpg", 300, 300],
  ["t_thumbnail-2,q_90", "docs/example/porsche.jpg", 200, 200],
  ["t_thumbnail-2", "docs/example/porsche.jpg", 200, 200],
  ["t_thumbnail", "doc1/porsche.jpg", 300, 300],
  ["w_100,h_100,c_fill,br_8", "doc1/nintendo.jpg", 100, 100],
  ["w_100,h_100,c_fill", "doc1/paintbrush.jpg", 100, 100],
  ["w_1080,h_1080,c_fit", "doc1/blackporsche.jpg", 1080, 720],
  ["w_1080", "doc1/product.jpg", 1080, 720],
  ["w_120,h_120,c_fill,br_8", "doc1/porsche.jpg", 120, 120],
  ["w_1200,c_fit", "doc1/porsche.jpg", 1200, 800],
  ["w_1200,h_1200,c_fit", "doc1/porsche.jpg", 1200, 800],
  ["w_1200,h_400,c_fill,p_entropy", "doc1/paintbrush.jpg", 1200, 400],
  ["w_1200,h_630,c_fill", "doc1/porsche.jpg", 1200, 630],
  ["w_1200", "doc1/rotjump.jpg", 1200, 800],
  ["w_1440,h_300,c_fill", "doc1/jump.jpg", 1440, 300],
  ["w_150,h_150,c_fill,br_10", "doc1/blackporsche.jpg", 150, 150],
  ["w_150,h_150,c_fill", "product-123.jpg", 150, 150],
  ["w_1500", "docs/example/porsche.jpg", 1500, 1000],
  ["w_1920,h_600,c_fill,p_c", "doc1/flight.jpg", 1920, 600],
  ["w_1920", "doc1/rotjump.jpg", 1920, 1280],
  ["w_20,e_blur:50", "doc1/porsche.jpg", 20, 13],
  ["w_200,h_200,c_fill", "doc1/paintbrush.jpg", 200, 200],
  ["w_200,h_60,c_fit", "doc1/nintendo.jpg", 90, 60],
  ["w_2000,h_2000,c_fit", "doc1/porsche.jpg", 2000, 1333],
  ["w_240,c_fit", "doc1/rotjump.jpg", 240, 160],
  ["w_250,h_250,c_fill,p_c", "doc1/paintbrush.jpg", 250, 250],
  ["w_300,h_300,c_fill,e_brightness:-30", "doc1/blackporsche.jpg", 300, 300],
  ["w_300,h_300,c_fill,p_c", "doc1/porsche.jpg", 300, 300],
  ["w_300", "doc1/ar-juice.jpg", 300, 200],
  ["w_32,h_32,c_fill", "doc1/nintendo.jpg", 32, 32],
  ["w_347,h_298,c_fill", "doc1/product.jpg", 347, 298],
  ["w_360,br_10", "doc1/photographer.jpg", 360, 240],
  ["w_360,br_20", "doc1/photographer.jpg", 360, 240],
  ["w_360,br_30", "doc1/photographer.jpg", 360, 240],
  ["w_360,br_50", "doc1/photographer.jpg", 360, 240],
  ["w_360,c_fit", "doc1/rotjump.jpg", 360, 240],
  ["w_360,flip_h", "doc1/gpose.jpg", 360, 240],
  ["w_360,flip_hv", "doc1/gpose.jpg", 360, 240],
  ["w_360,flip_v", "doc1/gpose.jpg", 360, 240],
  ["w_360,h_202,c_fill,br_10", "doc1/photographer.jpg", 360, 202],
  ["w_360,h_202,c_fill", "doc1/skate.jpg", 360, 202],
  ["w_360,h_240,c_fill,br_20", "doc1/photographer.jpg", 360, 240],
  ["w_360,h_240,c_fill,br_30", "doc1/photographer.jpg", 360, 240],
  ["w_360,h_240,c_fill", "doc1/paintbrush.jpg", 360, 240],
  ["w_360,h_360,c_crop,ar_1:1,br_180", "doc1/photographer.jpg", 360, 360],
  ["w_360,h_360,c_crop,br_15", "doc1/photographer.jpg", 360, 360],
  ["w_360,h_360,c_crop,br_180", "doc1/photographer.jpg", 360, 360],
  ["w_360,h_360,c_crop,br_20", "doc1/photographer.jpg", 360, 360],
  ["w_360,h_360,c_crop,br_40", "doc1/photographer.jpg", 360, 360],
  ["w_360,h_360,c_crop,p_b", "doc1/ar-juice.jpg", 360, 360],
  ["w_360,h_360,c_crop,p_c", "doc1/blackporsche.jpg", 360, 360],
  ["w_360,h_360,c_crop,p_t", "doc1/ar-juice.jpg", 360, 360],
  ["w_360,h_360,c_crop,p_tl", "doc1/blackporsche.jpg", 360, 360],
  ["w_360,h_360,c_crop", "doc1/ar-juice.jpg", 360, 360],
  ["w_360,h_360,c_fill,br_50", "doc1/photographer.jpg", 360, 360],
  ["w_360,h_360,c_fill", "doc1/ar-juice.jpg", 360, 360],
  ["w_360,h_360,c_fit", "doc1/ar-juice.jpg", 360, 240],
  ["w_360,h_360", "doc1/earring.jpg", 360, 360],
  ["w_360,r_180", "doc1/flight.jpg", 360, 240],
  ["w_360,r_270", "doc1/flight.jpg", 240, 360],
  ["w_360,r_90", "doc1/flight.jpg", 240, 360],
  ["w_360,r_landscape", "doc1/coffee_cup.jpg", 360, 240],
  ["w_360,r_portrait", "doc1/coffee_cup.jpg", 360, 540],
  ["w_360", "doc1/coffee_cup.jpg", 360, 240],
  ["w_400,h_400,c_crop,p_face", "doc1/photographer.jpg", 400, 400],
  ["w_400,h_400,c_fill,e_grayscale,o_50", "doc1/porsche.jpg", 400, 400],
  ["w_400,h_400,c_fill,e_grayscale", "doc1/nintendo.jpg", 400, 400],
  ["w_400,h_400,c_fill,p_c", "doc1/blackporsche.jpg", 400, 400],
  ["w_400,h_400,c_fill", "doc1/blackporsche.jpg", 400, 400],
  ["w_400", "doc1/product.jpg", 400, 267],
  ["w_480,h_480,c_fill,q_80,f_webp", "doc1/product.jpg", 480, 480],
  ["w_480,h_480,c_fill,q_85,f_webp", "product-123.jpg", 480, 480],
  ["w_480", "doc1/product.jpg", 480, 320],
  ["w_50,q_30", "doc1/porsche.jpg", 50, 33],
  ["w_500", "docs/example/porsche.jpg", 500, 333],
  ["w_60,h_60,c_fill,br_5", "doc1/nintendo.jpg", 60, 60],
  ["w_60,h_60,c_fill,br_50", "doc1/porsche.jpg", 60, 60],
  ["w_600,h_400,c_fit", "doc1/paintbrush.jpg", 600, 400],
  ["w_600,h_600,c_fill,p_entropy", "doc1/nintendo.jpg", 600, 600],
  ["w_650", "doc1/product.jpg", 650, 433],
  ["w_720,f_avif", "doc1/product.jpg", 720, 480],
  ["w_720,f_webp", "doc1/product.jpg", 720, 480],
  ["w_720,h_400,c_fill,p_c", "doc1/flight.jpg", 720, 400],
  ["w_720,h_720,c_fill", "product-123.jpg", 720, 720],
  ["w_720,h_720,c_fit", "doc1/blackporsche.jpg", 720, 480],
  ["w_720,q_70", "doc1/product.jpg", 720, 480],
  ["w_720,q_80", "doc1/product.jpg", 720, 480],
  ["w_720,q_90", "doc1/product.jpg", 720, 480],
  ["w_720", "doc1/hero-product.jpg", 720, 480],
  ["w_723,h_719,c_fill", "product-123.jpg", 723, 719],
  ["w_80,h_80,c_fill,br_5", "doc1/blackporsche.jpg", 80, 80],
  ["w_80,h_80,c_fill", "doc1/nintendo.jpg", 80, 80],
  ["w_800,h_800,c_fit", "doc1/blackporsche.jpg", 800, 533],
  ["w_800", "doc1/rotjump.jpg", 800, 533],
  ["w_auto", "doc1/product.jpg", 720, 480],
  ["z_1,w_360,h_360,c_crop", "doc1/coffee_cup.jpg", 360, 360],
  ["z_1.5,w_360,h_360", "doc1/gpose.jpg", 360, 360],
  ["z_2.0,w_600,h_600,c_crop,p_c", "doc1/porsche.jpg", 600, 600],
  ["z_3,w_360,h_360,c_crop,p_b", "doc1/coffee_cup.jpg", 360, 360],
  ["z_3,w_360,h_360,c_crop,p_t", "doc1/coffee_cup.jpg", 360, 360],
  ["z_3,w_360,h_360,c_crop", "doc1/coffee_cup.jpg", 360, 360],
  ["z_3,w_360,h_360", "doc1/gpose.jpg", 360, 360],
];

/** From TRANSFORMS-HOSTED.md §2, not used by any URL above. */
const DIGEST_EXAMPLES: Example[] = [
  ["w_0.5", "docs/example/porsche.jpg", 1000, 667],
  ["h_0.75", "docs/example/porsche.jpg", 1500, 1000],
  ["ar_9:16,h_360,c_fill", "docs/example/porsche.jpg", 203, 360],
  ["ps_10,20", "docs/example/porsche.jpg", 2000, 1333],
  ["ps_center", "docs/example/porsche.jpg", 2000, 1333],
  ["r_450", "docs/example/porsche.jpg", 1333, 2000],
  ["f_webp", "docs/example/porsche.jpg", 2000, 1333],
  ["w_800,h_800,c_fill,q_auto,f_auto", "docs/example/porsche.jpg", 800, 800],
  ["q_auto", "docs/example/porsche.jpg", 2000, 1333],
  ["e_hue:30", "docs/example/porsche.jpg", 2000, 1333],
  ["e_temperature:40", "docs/example/porsche.jpg", 2000, 1333],
  ["e_warmth:20", "docs/example/porsche.jpg", 2000, 1333],
  ["e_brightness:10,e_saturation:20,e_sharpen", "docs/example/porsche.jpg", 2000, 1333],
  ["w_800,e_grayscale", "docs/example/porsche.jpg", 800, 533],
  ["t_thumbnail,e_blur:20", "docs/example/porsche.jpg", 300, 300],
];

/** The recipes as the documentation writes them out (E/automatic.mdx, E/recipes.mdx, B/*.mdx). */
const RECIPES: Record<string, string> = {
  "thumbnail-2": "c_fill,w_200,h_200,p_c",
  thumbnail: "c_fill,w_300,h_300,p_c",
  "product-card": "w_400,h_400,c_fill,e_auto_enhance",
  "product-detail": "w_1200,h_1200,c_fit,e_structure:30",
  "product-thumbnail": "c_fill,w_300,h_300,p_c",
};

const LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80" viewBox="0 0 200 80"><rect width="200" height="80" rx="12" fill="#1d4ed8"/><circle cx="40" cy="40" r="24" fill="#fff"/></svg>',
);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const photo = await sharp(await pattern(2000, 1333))
    .jpeg({ quality: 85 })
    .toBuffer();
  const paths = new Set([...DOCS_EXAMPLES, ...DIGEST_EXAMPLES].map(([, path]) => path));
  for (const path of paths) {
    const slash = path.lastIndexOf("/");
    const fields = {
      file_name: path.slice(slash + 1),
      ...(slash > 0 ? { folder: path.slice(0, slash) } : {}),
    };
    uploaded(await directUpload(t, fields, { content: photo, type: "image/jpeg" }));
  }
  uploaded(await directUpload(t, { file_name: "logo.svg" }, { content: LOGO, type: "image/svg+xml" }));
  for (const [name, transform] of Object.entries(RECIPES)) {
    await setNamedTransform(t.app.db, t.workspace.id, name, transform);
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
});

async function expectRendered([transform, path, width, height]: Example) {
  const res = await t.app.inject({ url: `/assets/${t.workspace.workspaceNo}/${transform}/${path}` });
  expect(res.statusCode, `${transform}/${path}: ${res.body.slice(0, 300)}`).toBe(200);
  const metadata = await sharp(res.rawPayload).metadata();
  expect([metadata.width, metadata.height], transform).toEqual([width, height]);
}

describe("the hosted documentation's example URLs", () => {
  it.each(DOCS_EXAMPLES)("%s/%s is %i×%i", async (...example) => {
    await expectRendered(example);
  });
});

describe("the hosted digest's §2 examples", () => {
  it.each(DIGEST_EXAMPLES)("%s/%s is %i×%i", async (...example) => {
    await expectRendered(example);
  });
});
