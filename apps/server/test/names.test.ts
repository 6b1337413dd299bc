// Names that would make a URL mean two things are refused wherever a name is given: a folder or
// file named like a transformation step (delivery reads `w_100/cat.jpg` as "w_100 of cat.jpg", and
// `t_card/cat.jpg` as the workspace's named transform `card` of cat.jpg),
// and bidirectional controls (a name that displays as another). Each entry point answers 400 in
// its group's envelope with a message that says why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRaw } from "./multipart-helpers.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

// The last ones became steps with issue #32's keys.
const STEP_NAMES = [
  "w_100",
  "r_0",
  "w_256,h_256,c_limit,f_webp",
  "e_grayscale",
  "f_auto",
  "t_card",
  "o_50",
  "z_2",
  "fo_face",
  "w_auto",
  "l_image:a.png,fl_layer_apply",
  "t_card,e_blur:20",
  "r_450",
];
const BIDI_NAMES = ["cat\u202egpj.exe", "a\u2066b", "x\u200fy"];
const STEP_MESSAGE = /must not read as a transformation step/;
const BIDI_MESSAGE = /must not contain bidirectional control characters/;

function inject(method: "POST" | "PATCH", url: string, payload: Record<string, unknown>) {
  return t.app.inject({ method, url, headers: { "x-api-key": t.keys.private }, payload });
}

describe("names that read as a transformation step", () => {
  it.each(STEP_NAMES)("direct upload refuses the folder %s (public key too)", async (name) => {
    for (const key of [t.keys.public, t.keys.private]) {
      const res = await directUpload(
        t,
        { file_name: "cat.jpg", folder: `photos/${name}` },
        { content: Buffer.from("x") },
        { key },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, errorCode: "VALIDATION_FAILED" });
      expect(res.json().message).toMatch(STEP_MESSAGE);
    }
  });

  it("direct upload refuses a file name that is a step, keeps one that only looks like one", async () => {
    const refused = await directUpload(t, { file_name: "w_100" }, { content: Buffer.from("x") });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(STEP_MESSAGE);
    const kept = uploaded(
      await directUpload(t, { file_name: "e_ticket.txt" }, { content: Buffer.from("x") }),
    );
    expect(kept.name).toBe("e_ticket.txt");
  });

  it.each(STEP_NAMES)("multipart start refuses the folder %s", async (name) => {
    const res = await startRaw(
      t,
      { file_name: "big.bin", size: 10, format: "application/octet-stream", folder: name },
      t.keys.public,
    );
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toMatch(STEP_MESSAGE);
  });

  it.each(STEP_NAMES)("folder create and rename refuse %s", async (name) => {
    const created = await inject("POST", "/api/v1/folders", { name });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual({ success: false, error: expect.stringMatching(STEP_MESSAGE) });

    const folder = await inject("POST", "/api/v1/folders", { name: `plain-${STEP_NAMES.indexOf(name)}` });
    expect(folder.statusCode).toBe(200);
    const renamed = await inject("POST", `/api/v1/folders/rename/${folder.json().folder_no}`, { name });
    expect(renamed.statusCode).toBe(400);
    expect(JSON.stringify(renamed.json())).toMatch(STEP_MESSAGE);
  });

  it("file rename refuses a step", async () => {
    const file = uploaded(
      await directUpload(t, { file_name: "rename-me.txt" }, { content: Buffer.from("x") }),
    );
    const file_no = (await t.app.db.file.findUniqueOrThrow({ where: { id: file.id } })).fileNo;
    for (const name of ["r_0", "t_card"]) {
      const res = await inject("PATCH", `/api/v1/files/${file_no}/rename`, { name });
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toMatch(STEP_MESSAGE);
    }
  });
});

describe("names with bidirectional controls", () => {
  it.each(BIDI_NAMES)("are refused as file name, folder and folder name: %j", async (name) => {
    const asFile = await directUpload(
      t,
      { file_name: name },
      { content: Buffer.from("x") },
      { key: t.keys.public },
    );
    expect(asFile.statusCode).toBe(400);
    expect(asFile.json().message).toMatch(BIDI_MESSAGE);
    const asFolder = await directUpload(
      t,
      { file_name: "a.txt", folder: name },
      { content: Buffer.from("x") },
    );
    expect(asFolder.statusCode).toBe(400);
    expect(asFolder.json().message).toMatch(BIDI_MESSAGE);
    const created = await inject("POST", "/api/v1/folders", { name });
    expect(created.statusCode).toBe(400);
    expect(created.json().error).toMatch(BIDI_MESSAGE);
  });
});
