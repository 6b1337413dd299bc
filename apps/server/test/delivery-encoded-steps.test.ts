// A layer's text and path are percent-encoded inside the transform segment (`,` `/` `:` as
// %2C %2F %3A): the delivery host must hand the grammar the step still encoded, so that it is
// split into directives before anything is decoded. Route-level: the variant is cached under the
// key of the canonical string whose text is `Hello, World/`, and another spelling of the same
// text is the same variant.
import { parseTransform } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDeliveryPath } from "../src/delivery/delivery-path.js";
import { splitTransform } from "../src/delivery/transform-path.js";
import { variantCacheKey } from "../src/media/variant-cache-key.js";
import { FsStorageDriver } from "../src/storage/fs-driver.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { directUpload, listObjects, uploaded } from "./uploads-helpers.js";

const STEP = "l_text:arial_24:Hello%2C%20World%2F,fl_layer_apply";

let t: TestApp;
let storage: FsStorageDriver;
let ws: string;
let storageKey: string;

beforeAll(async () => {
  const { mkdtemp } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  storage = new FsStorageDriver(await mkdtemp(join(tmpdir(), "trove-encoded-steps-")));
  t = await createTestApp({ storage });
  ws = t.workspace.workspaceNo;
  const png = await solid(200, 100, { r: 240, g: 240, b: 240 }, "png");
  const body = uploaded(await directUpload(t, { file_name: "card.png", folder: "pics" }, { content: png }));
  storageKey = (await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } })).storageKey;
});
afterAll(async () => {
  await t?.close();
  const { rm } = await import("node:fs/promises");
  await rm(storage.root, { recursive: true, force: true });
});

describe("percent-encoded text in a delivery URL's transform", () => {
  it("reaches the grammar encoded, and the grammar decodes it after splitting", () => {
    const target = parseDeliveryPath(`/${ws}/${STEP}/pics/card.png`);
    expect(target?.path).toBe(`${STEP}/pics/card.png`);
    const { transform, path } = splitTransform(target?.path ?? "");
    expect(path).toBe("pics/card.png");
    expect(transform).toBe(STEP);
    expect(parseTransform(transform)[0]?.layers?.[0]?.source).toMatchObject({ text: "Hello, World/" });
  });

  it("renders the variant under the canonical string's cache key; another spelling is the same variant", async () => {
    const first = await t.app.inject({ method: "GET", url: `/assets/${ws}/${STEP}/pics/card.png` });
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-cache"]).toBe("MISS");
    const objects = await listObjects(storage.root);
    expect(objects).toContain(variantCacheKey(storageKey, STEP, "legacy"));

    const lower = "l_text:arial_24:Hello%2c%20World%2f,fl_layer_apply";
    const second = await t.app.inject({ method: "GET", url: `/assets/${ws}/${lower}/pics/card.png` });
    expect(second.statusCode).toBe(200);
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it("answers 400 naming the directive for a step the grammar refuses", async () => {
    const res = await t.app.inject({ method: "GET", url: `/assets/${ws}/l_text:arial_24:Hi/pics/card.png` });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("l_text:arial_24:Hi: layer is not closed by fl_layer_apply");
  });

  it("answers 400 for escapes that are not UTF-8 (the router refuses the URL before delivery)", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/assets/${ws}/l_text:arial_24:%C3,fl_layer_apply/pics/card.png`,
    });
    expect(res.statusCode).toBe(400);
  });

  // Not a valid step, so the segment is decoded as a folder name, and a decoded NUL or `/` is
  // no path: 404 before any lookup. The grammar refuses both too (parse-layers.test.ts).
  it.each(["l_text:arial_24:a%00b,fl_layer_apply", "l_image:..%2Fsecret.png,fl_layer_apply"])(
    "answers 404 for %s",
    async (step) => {
      const res = await t.app.inject({ method: "GET", url: `/assets/${ws}/${step}/pics/card.png` });
      expect(res.statusCode).toBe(404);
    },
  );
});
