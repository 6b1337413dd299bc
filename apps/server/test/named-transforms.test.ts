// Named transforms and strict mode: what the CLI stores (setNamedTransform & co.) and what
// delivery gets from resolveTransform, against a real (PGlite) database.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { THUMBNAIL_TRANSFORM } from "../src/files/file-urls.js";
import type { PrismaClient } from "../src/generated/prisma/client.js";
import {
  listNamedTransforms,
  NamedTransformError,
  removeNamedTransform,
  resolveTransform,
  STRICT_TRANSFORMS_MESSAGE,
  setNamedTransform,
  setStrictTransforms,
} from "../src/transforms/index.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { directUpload } from "./uploads-helpers.js";

let t: TestApp;
let db: PrismaClient;
let workspaceId: string;
beforeAll(async () => {
  t = await createTestApp();
  db = t.app.db;
  workspaceId = t.workspace.id;
});
afterAll(async () => {
  await t?.close();
});

/** resolveTransform's error, or a failure when it resolves. */
async function refusal(transform: string, signed = false) {
  const error = await resolveTransform(db, workspaceId, transform, { signed }).then(
    (value) => new Error(`resolved to ${value}`),
    (caught: unknown) => caught,
  );
  return error as { status?: number; message: string; errorCode?: string };
}

describe("setNamedTransform", () => {
  it("stores the canonical definition, and replaces it on a second set", async () => {
    const row = await setNamedTransform(db, workspaceId, "card", "h_300,w_400,f_jpeg");
    expect(row).toMatchObject({ name: "card", transform: "w_400,h_300,c_fill,f_jpg" });
    await setNamedTransform(db, workspaceId, "t_card", "w_400,h_300,c_fill,f_auto");
    const rows = await listNamedTransforms(db, workspaceId);
    expect(rows.filter((r) => r.name === "card").map((r) => r.transform)).toEqual([
      "w_400,h_300,c_fill,f_auto",
    ]);
  });

  it.each([
    ["Card", "w_100", /is not a transform name/],
    ["", "w_100", /is not a transform name/],
    ["a".repeat(65), "w_100", /is not a transform name/],
    ["bad", "q_200", /^Invalid transform: q_200: quality must be 1\.\.100$/],
    ["bad", "", /^Invalid transform: transform is empty$/],
    ["bad", "r_0/br_0", /does nothing/],
    ["bad", "t_card", /cannot use another one \(t_card\)/],
    ["bad", "w_100/t_card", /cannot use another one/],
  ])("refuses name %j with %j", async (name, transform, message) => {
    await expect(setNamedTransform(db, workspaceId, name, transform)).rejects.toThrow(message);
    await expect(setNamedTransform(db, workspaceId, name, transform)).rejects.toBeInstanceOf(
      NamedTransformError,
    );
  });

  it("keeps names per workspace", async () => {
    await setNamedTransform(db, t.workspace2.id, "card", "w_10");
    expect((await listNamedTransforms(db, t.workspace2.id)).map((r) => r.transform)).toEqual(["w_10"]);
    expect(await resolveTransform(db, t.workspace2.id, "t_card", { signed: false })).toBe("w_10");
  });

  it("removes a name, and says so when there is none", async () => {
    await setNamedTransform(db, workspaceId, "gone", "w_50");
    await removeNamedTransform(db, workspaceId, "gone");
    expect((await listNamedTransforms(db, workspaceId)).some((r) => r.name === "gone")).toBe(false);
    await expect(removeNamedTransform(db, workspaceId, "gone")).rejects.toThrow("No named transform t_gone");
  });
});

describe("resolveTransform", () => {
  beforeEach(async () => {
    await setStrictTransforms(db, workspaceId, false);
    await setNamedTransform(db, workspaceId, "card", "w_400,h_300,c_fill,f_auto");
    await setNamedTransform(db, workspaceId, "gray", "e_grayscale");
  });

  it("replaces each named step by its definition, other steps written canonically", async () => {
    expect(await resolveTransform(db, workspaceId, "t_card", { signed: false })).toBe(
      "w_400,h_300,c_fill,f_auto",
    );
    expect(await resolveTransform(db, workspaceId, "t_card/t_gray/h_20,w_10", { signed: false })).toBe(
      "w_400,h_300,c_fill,f_auto/e_grayscale/w_10,h_20,c_fill",
    );
    expect(await resolveTransform(db, workspaceId, "t_gray/t_gray", { signed: true })).toBe(
      "e_grayscale/e_grayscale",
    );
    expect(await resolveTransform(db, workspaceId, "w_100", { signed: false })).toBe("w_100");
  });

  it("refuses an unknown name with a 400 naming it", async () => {
    const error = await refusal("t_card/t_nope");
    expect(error).toMatchObject({
      status: 400,
      errorCode: "INVALID_TRANSFORM",
      message: "Unknown named transform t_nope",
    });
    // Another workspace's name is unknown here.
    await setNamedTransform(db, t.workspace2.id, "theirs", "w_10");
    expect(await refusal("t_theirs")).toMatchObject({
      status: 400,
      message: "Unknown named transform t_theirs",
    });
  });

  it("writes t_<name>,REST as the definition, then REST as one more step", async () => {
    // The hosted docs' t_thumbnail-2,q_90: the recipe, then the other tokens of the list. REST
    // never edits the recipe: w_100 resizes the recipe's output, it does not replace its width.
    expect(await resolveTransform(db, workspaceId, "t_card,w_100", { signed: false })).toBe(
      "w_400,h_300,c_fill,f_auto/w_100",
    );
    expect(await resolveTransform(db, workspaceId, "e_blur:20,t_card/t_gray,q_90", { signed: false })).toBe(
      "w_400,h_300,c_fill,f_auto/e_blur:20/e_grayscale/q_90",
    );
    // A rest that does nothing adds no step.
    expect(await resolveTransform(db, workspaceId, "t_gray,r_0", { signed: false })).toBe("e_grayscale");
  });

  it("refuses an invalid transform with the grammar's message", async () => {
    expect(await refusal("t_card,t_gray")).toMatchObject({
      status: 400,
      errorCode: "INVALID_TRANSFORM",
      message: "t_gray: key t is repeated in the step",
    });
    expect(await refusal("q_200")).toMatchObject({ status: 400, message: "q_200: quality must be 1..100" });
  });

  it("refuses an expansion over the grammar's limits with a 400, not a render", async () => {
    await setNamedTransform(db, workspaceId, "six", "w_10/w_20/w_30/w_40/w_50/w_60");
    expect(await refusal("t_six/t_six")).toMatchObject({
      status: 400,
      errorCode: "INVALID_TRANSFORM",
      message: "Once its named transforms are written out: transform has more than 10 steps",
    });
  });

  it("refuses with a 400 a step whose canonical spelling outgrows the limit beside a name", async () => {
    // Raw `_` in a layer path is 1 character in the URL and 3 (`%5F`) once canonical: 7 such
    // layers fit in 8192 as written, not once written out.
    const layer = `l_image:${"_".repeat(1000)}.png,fl_layer_apply`;
    const long = Array(7).fill(layer).join(",");
    for (const transform of [`t_card/${long}`, `t_card,${long}`]) {
      expect(await refusal(transform), transform.slice(0, 20)).toMatchObject({
        status: 400,
        errorCode: "INVALID_TRANSFORM",
        message: "Once its named transforms are written out: transform is longer than 8192 characters",
      });
    }
  });

  it("in strict mode serves only named steps, or anything signed", async () => {
    await setStrictTransforms(db, workspaceId, true);
    expect(await resolveTransform(db, workspaceId, "t_card/t_gray", { signed: false })).toBe(
      "w_400,h_300,c_fill,f_auto/e_grayscale",
    );
    // t_card,q_90 is t_card/q_90: q_90 is the caller's choice, not a named transform.
    for (const transform of ["w_100", "t_card/w_100", "r_0", "w_100/t_card", "t_card,q_90", "q_90,t_card"]) {
      expect(await refusal(transform), transform).toMatchObject({
        status: 403,
        message: STRICT_TRANSFORMS_MESSAGE,
      });
      expect(await resolveTransform(db, workspaceId, transform, { signed: true })).not.toMatch(/t_/);
    }
    // The thumbnail that file responses link to still renders.
    expect(await resolveTransform(db, workspaceId, THUMBNAIL_TRANSFORM, { signed: false })).toBe(
      THUMBNAIL_TRANSFORM,
    );
    // An unknown name is still a 400, signed or not.
    expect(await refusal("t_nope")).toMatchObject({ status: 400 });
    expect(await refusal("t_nope", true)).toMatchObject({ status: 400 });
    // Strict mode is per workspace.
    expect(await resolveTransform(db, t.workspace2.id, "w_100", { signed: false })).toBe("w_100");
  });

  it("sees a change at once (no cache)", async () => {
    await setNamedTransform(db, workspaceId, "card", "w_1");
    expect(await resolveTransform(db, workspaceId, "t_card", { signed: false })).toBe("w_1");
    await removeNamedTransform(db, workspaceId, "card");
    expect(await refusal("t_card")).toMatchObject({ status: 400 });
  });

  it("makes at most one query, and none for a signed URL without names", async () => {
    let queries = 0;
    const counting = {
      $queryRaw: ((...args: Parameters<PrismaClient["$queryRaw"]>) => {
        queries++;
        return db.$queryRaw(...args);
      }) as PrismaClient["$queryRaw"],
    };
    await resolveTransform(counting, workspaceId, "t_card/t_gray/t_card/w_5", { signed: false });
    expect(queries).toBe(1);
    await resolveTransform(counting, workspaceId, "w_100", { signed: false });
    expect(queries).toBe(2);
    await resolveTransform(counting, workspaceId, "w_100/e_grayscale", { signed: true });
    await resolveTransform(counting, workspaceId, THUMBNAIL_TRANSFORM, { signed: false });
    expect(queries).toBe(2);
  });
});

describe("upload-time transforms", () => {
  it("refuse a named step (only delivery knows the names) with 400 INVALID_TRANSFORM", async () => {
    const png = await solid(20, 20, { r: 1, g: 2, b: 3 }, "png");
    const res = await directUpload(t, { file_name: "a.png", transform: "t_card" }, { content: png });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errorCode: "INVALID_TRANSFORM",
      message: "t_card: named transforms apply at delivery only",
    });
  });
});
