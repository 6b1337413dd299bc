// Delivery with faces (issue #32): p_face places the crop on the faces, fo_face frames the output
// on them, several faces count as their union, an image without a face falls back to the centre
// (p_face) or to no framing (fo_face), and fo_{object} is refused naming what is supported.
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FACE_FIXTURE_PATH, FIXTURE_FACE, FIXTURE_GREY, facesIn } from "./support/face-images.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { shapes } from "./support/test-images.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
let ws: string;

async function upload(name: string, content: Buffer) {
  uploaded(await directUpload(t, { file_name: name, folder: "faces" }, { content }));
}

beforeAll(async () => {
  t = await createTestApp();
  ws = t.workspace.workspaceNo;
  const portrait = await readFile(FACE_FIXTURE_PATH);
  await upload("astronaut.jpg", portrait);
  // Two faces far apart: the portrait's left half, and the same mirrored at the right edge.
  const half = await sharp(portrait).extract({ left: 0, top: 0, width: 512, height: 512 }).toBuffer();
  const pair = await sharp({ create: { width: 1600, height: 512, channels: 3, background: "#3a3e46" } })
    .composite([
      { input: half, left: 0, top: 0 },
      { input: await sharp(half).flop().toBuffer(), left: 1088, top: 0 },
    ])
    .jpeg()
    .toBuffer();
  await upload("pair.jpg", pair);
  // No face: coloured shapes on a gradient-free background.
  const drawn = shapes(800, 400, "#3a6ea5", [
    { rect: { left: 560, top: 60, width: 200, height: 140 }, colour: "#e0c040" },
    { circle: { cx: 140, cy: 260, r: 90 }, colour: "#204020" },
  ]);
  await upload("shapes.png", await drawn.png().toBuffer());
});
afterAll(async () => {
  await t?.close();
});

async function render(transform: string, file: string) {
  const res = await t.app.inject({ method: "GET", url: `/assets/${ws}/${transform}/faces/${file}` });
  expect(res.statusCode, res.body).toBe(200);
  const { data, info } = await sharp(res.rawPayload)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { body: res.rawPayload, data, width: info.width, height: info.height };
}

/** True when the column at `x` is the fixture's plain grey right half from top to bottom. */
function greyColumn(image: { data: Buffer; width: number; height: number }, x: number): boolean {
  for (let y = 0; y < image.height; y += 4) {
    const i = (y * image.width + x) * 3;
    const [r = 0, g = 0, b = 0] = image.data.subarray(i, i + 3);
    if (
      Math.abs(r - FIXTURE_GREY.r) > 12 ||
      Math.abs(g - FIXTURE_GREY.g) > 12 ||
      Math.abs(b - FIXTURE_GREY.b) > 12
    )
      return false;
  }
  return true;
}

describe("p_face", () => {
  it("w_200,h_200,c_fill,p_face keeps the off-centre face that p_c cuts", async () => {
    const centred = await render("w_200,h_200,c_fill,p_c", "astronaut.jpg");
    const faced = await render("w_200,h_200,c_fill,p_face", "astronaut.jpg");
    expect([faced.width, faced.height]).toEqual([200, 200]);
    // p_c's window is the middle 512 px (256..768): half of it is the grey right half, and the
    // face (x 150..290) is cut.
    expect(greyColumn(centred, 150)).toBe(true);
    expect(await facesIn(centred.body)).toHaveLength(0);
    // p_face's window is pushed to the left edge: the whole portrait, with its face.
    expect(greyColumn(faced, 199)).toBe(false);
    const [face] = await facesIn(faced.body);
    expect(face).toBeDefined();
    // Where the fixture's face is, at 200/512 of its size.
    expect(Math.abs((face?.left ?? 0) - FIXTURE_FACE.left * (200 / 512))).toBeLessThan(12);
  });

  it("c_crop,p_face cuts the w×h window around the face", async () => {
    const crop = await render("w_200,h_200,c_crop,p_face", "astronaut.jpg");
    expect([crop.width, crop.height]).toEqual([200, 200]);
    const [face] = await facesIn(crop.body);
    // The face (140 px) sits in the middle of the 200 px window.
    expect(face).toBeDefined();
    const centre = (face?.left ?? 0) + (face?.width ?? 0) / 2;
    expect(Math.abs(centre - 100)).toBeLessThan(20);
  });

  it("an image without a face falls back to p_c: the same bytes", async () => {
    const faced = await render("w_200,h_200,c_fill,p_face", "shapes.png");
    const centred = await render("w_200,h_200,c_fill,p_c", "shapes.png");
    expect(Buffer.compare(faced.body, centred.body)).toBe(0);
  });
});

describe("fo_face", () => {
  it("fo_face,w_300 frames the face with a margin, at most its own size without fl_upscale", async () => {
    const framed = await render("fo_face,w_300", "astronaut.jpg");
    // The face (about 140×120) plus half a face each side, no enlargement: about 280 px.
    expect(framed.width).toBeGreaterThan(180);
    expect(framed.width).toBeLessThan(300);
    const [face] = await facesIn(framed.body);
    expect((face?.width ?? 0) / framed.width).toBeGreaterThan(0.35);
    const upscaled = await render("fo_face,w_300,fl_upscale", "astronaut.jpg");
    expect(upscaled.width).toBe(300);
    expect(await facesIn(upscaled.body)).toHaveLength(1);
  });

  it("fo_face,w_300,h_300,br_150 is a square avatar of the face", async () => {
    const avatar = await render("fo_face,w_300,h_300,br_150,fl_upscale", "astronaut.jpg");
    expect([avatar.width, avatar.height]).toEqual([300, 300]);
    const [face] = await facesIn(avatar.body);
    expect(face).toBeDefined();
    const centre = (face?.left ?? 0) + (face?.width ?? 0) / 2;
    expect(Math.abs(centre - 150)).toBeLessThan(30);
    const plain = await render("fo_face,w_300,h_300,br_150", "astronaut.jpg");
    expect(plain.width).toBe(plain.height);
  });

  it("several faces are framed as their union", async () => {
    const framed = await render("fo_face,w_800", "pair.jpg");
    expect(await facesIn(framed.body)).toHaveLength(2);
    // From the left face's margin to the right one's: most of the 1600 px, not all of it.
    expect(framed.width).toBe(800);
    expect(framed.height).toBeLessThan(400);
  });

  it("an image without a face is not framed: fo_face,w_100 is w_100", async () => {
    const framed = await render("fo_face,w_100", "shapes.png");
    const plain = await render("w_100", "shapes.png");
    expect(Buffer.compare(framed.body, plain.body)).toBe(0);
  });

  it("r_portrait turns the image first: the faces found before the turn are framed after it", async () => {
    const framed = await render("r_portrait,fo_face,w_300,fl_upscale", "astronaut.jpg");
    expect(framed.width).toBe(300);
    // Turned back, the frame holds the face (the unturned box would have framed her shoulder).
    expect(await facesIn(await sharp(framed.body).rotate(270).toBuffer())).toHaveLength(1);
  });

  it("a store-time transform with p_face stores the face-placed crop", async () => {
    const portrait = await readFile(FACE_FIXTURE_PATH);
    const stored = uploaded(
      await directUpload(
        t,
        { file_name: "stored.jpg", folder: "faces", transform: "w_200,h_200,c_fill,p_face" },
        { content: portrait },
      ),
    );
    expect(stored).toMatchObject({ width: 200, height: 200 });
    const res = await t.app.inject({ method: "GET", url: `/assets/${ws}/faces/stored.jpg` });
    expect(await facesIn(res.rawPayload)).toHaveLength(1);
  });

  it("fo_car is refused with a 400 that names what is supported", async () => {
    const res = await t.app.inject({ method: "GET", url: `/assets/${ws}/fo_car,w_600/faces/astronaut.jpg` });
    expect(res.statusCode).toBe(400);
    // No object detector ships in a package (apps/server/README.md, "Faces"): face is the one subject.
    expect(res.json()).toMatchObject({ message: "fo_car: focus must be one of face" });
  });
});
