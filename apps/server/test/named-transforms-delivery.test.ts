// Named transforms and strict mode through the delivery host: `t_card` renders its definition,
// strict mode refuses any other transform with 403 unless the URL is signed, and the change of a
// definition or of the mode applies to the next request.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setNamedTransform, setStrictTransforms } from "../src/transforms/named-transforms.js";
import { STRICT_TRANSFORMS_MESSAGE } from "../src/transforms/resolve-transform.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
let path: string;

beforeAll(async () => {
  t = await createTestApp();
  const png = await solid(800, 600, { r: 90, g: 90, b: 200 }, "png");
  const res = await directUpload(t, { file_name: "card.png" }, { content: png, type: "image/png" });
  path = uploaded(res).path;
  await setNamedTransform(t.app.db, t.workspace.id, "card", "w_400,h_300,c_fill,f_webp");
});
afterAll(async () => {
  await t?.close();
});

const get = (transform: string, query = "") =>
  t.app.inject({ url: `/assets/${t.workspace.workspaceNo}/${transform}/${path}${query}` });

async function signed(transform: string): Promise<string> {
  const fileNo = (await t.app.db.file.findFirstOrThrow({ where: { path, workspaceId: t.workspace.id } }))
    .fileNo;
  const res = await t.app.inject({
    method: "POST",
    url: `/api/v1/files/${fileNo}/signed-url`,
    headers: { "x-api-key": t.keys.private },
    payload: { transform },
  });
  return new URL(res.json().data.url).search;
}

describe("named transforms at the delivery host", () => {
  it("t_card renders its definition; an unknown name is 400", async () => {
    const res = await get("t_card");
    expect(res.statusCode, res.body).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: "webp", width: 400, height: 300 });
    const unknown = await get("t_nope");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain("t_nope");
  });

  it("t_card,e_grayscale is t_card/e_grayscale: the recipe, then the rest of its step", async () => {
    const chained = await get("t_card/e_grayscale");
    const inline = await get("t_card,e_grayscale");
    expect(inline.statusCode, inline.body).toBe(200);
    // One canonical string, so one cache key: the same variant, byte for byte.
    expect(inline.headers.etag).toBe(chained.headers.etag);
    expect(inline.rawPayload.equals(chained.rawPayload)).toBe(true);
    const { width, height, format } = await sharp(inline.rawPayload).metadata();
    expect({ width, height, format }).toEqual({ width: 400, height: 300, format: "webp" });
    const { channels } = await sharp(inline.rawPayload).stats();
    expect(channels[0]?.mean).toBeCloseTo(channels[2]?.mean ?? -1, 0);
  });

  it("a new definition applies to the next request", async () => {
    await setNamedTransform(t.app.db, t.workspace.id, "thumb", "w_100,f_png");
    expect((await sharp((await get("t_thumb")).rawPayload).metadata()).width).toBe(100);
    await setNamedTransform(t.app.db, t.workspace.id, "thumb", "w_50,f_png");
    expect((await sharp((await get("t_thumb")).rawPayload).metadata()).width).toBe(50);
  });

  it("strict mode: named transforms and signed URLs render, anything else is 403", async () => {
    await setStrictTransforms(t.app.db, t.workspace.id, true);
    try {
      expect((await get("t_card")).statusCode).toBe(200);
      const refused = await get("w_123");
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: "Forbidden", message: STRICT_TRANSFORMS_MESSAGE });
      expect((await get("t_card/e_grayscale")).statusCode).toBe(403);
      expect((await get("t_card,e_grayscale")).statusCode).toBe(403);
      // A signature covers the canonical string: one issued for t_card/e_grayscale (or for
      // t_card,e_grayscale, which the API canonicalises) holds for either spelling of the URL.
      for (const issued of ["t_card/e_grayscale", "t_card,e_grayscale"]) {
        const query = await signed(issued);
        expect((await get("t_card,e_grayscale", query)).statusCode).toBe(200);
        expect((await get("t_card/e_grayscale", query)).statusCode).toBe(200);
      }
      const ok = await get("w_123", await signed("w_123"));
      expect(ok.statusCode).toBe(200);
      expect((await sharp(ok.rawPayload).metadata()).width).toBe(123);
      // The plain file is not a transform: strict mode leaves it alone.
      expect((await t.app.inject({ url: `/assets/${t.workspace.workspaceNo}/${path}` })).statusCode).toBe(
        200,
      );
    } finally {
      await setStrictTransforms(t.app.db, t.workspace.id, false);
    }
    expect((await get("w_123")).statusCode).toBe(200);
  });
});
