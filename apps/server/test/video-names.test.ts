// Issue #33's video steps are transformation steps too: `{ws}/so_5,eo_15/clip.mp4` is a trim of
// clip.mp4, so a folder or file named `so_5` or `thumb_ar` would make that URL mean two things.
// The names are refused with the same documented message as image steps (see names.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDeliveryPath } from "../src/delivery/delivery-path.js";
import { splitTransform } from "../src/delivery/transform-path.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const VIDEO_STEP_NAMES = [
  "thumb_ar",
  "so_5",
  "d_10",
  "so_5,eo_15,w_400",
  "cm_pad_resize",
  "w_400,h_400,cm_pad_resize,bg_blurred",
  "f_gif,so_5,d_10,w_400",
  "st_240_360",
];
// Near misses: their values do not parse, so they stay ordinary names.
const PLAIN_NAMES = ["so_5.mp4", "thumb_nail", "st_240_180", "d_day"];

const stepMessage = (name: string) =>
  new RegExp(`must not read as a transformation step \\("${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\)`);

function createFolder(name: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/v1/folders",
    headers: { "x-api-key": t.keys.private },
    payload: { name },
  });
}

describe("names that read as a video step", () => {
  it.each(VIDEO_STEP_NAMES)("folder create refuses %s with the documented error", async (name) => {
    const res = await createFolder(name);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: expect.stringMatching(stepMessage(name)) });
  });

  it.each(VIDEO_STEP_NAMES)("direct upload refuses the folder %s", async (name) => {
    const res = await directUpload(
      t,
      { file_name: "clip.mp4", folder: `videos/${name}` },
      { content: Buffer.from("x") },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, errorCode: "VALIDATION_FAILED" });
    expect(res.json().message).toMatch(stepMessage(name));
  });

  it("direct upload refuses a file named thumb_ar", async () => {
    const res = await directUpload(t, { file_name: "thumb_ar" }, { content: Buffer.from("x") });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(stepMessage("thumb_ar"));
  });

  it.each(PLAIN_NAMES)("keeps %s, which only looks like a video step", async (name) => {
    const res = await createFolder(name);
    expect(res.statusCode).toBe(200);
    const file = uploaded(await directUpload(t, { file_name: `${name}.txt` }, { content: Buffer.from("x") }));
    expect(file.name).toBe(`${name}.txt`);
  });
});

describe("a delivery path with a video step", () => {
  it.each(["so_5,eo_15", "thumb_ar", "so_5,eo_15,w_400,f_gif", "st_240_360"])(
    "reads /ws1/%s/clips/clip.mp4 as that transform and the path",
    (step) => {
      const target = parseDeliveryPath(`/ws1/${step}/clips/clip.mp4`);
      expect(target).toEqual({ workspaceNo: "ws1", path: `${step}/clips/clip.mp4` });
      expect(splitTransform(target?.path ?? "")).toEqual({ transform: step, path: "clips/clip.mp4" });
    },
  );

  it("keeps a near miss as a folder", () => {
    expect(splitTransform("so_5.mp4/clip.mp4")).toEqual({ transform: "", path: "so_5.mp4/clip.mp4" });
  });
});
