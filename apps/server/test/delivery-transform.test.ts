// Delivery-time transforms: GET {assets}/{workspace_no}/{transform}/{path}. Rendered with sharp,
// cached in storage under variantCacheKey, negotiated for f_auto with Vary: Accept, 304 on
// If-None-Match, 400 naming the directive, and never served for a deleted file.
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { variantCachePrefix } from "../src/media/variant-cache-key.js";
import type { ByteRange, PutOptions, StorageDriver } from "../src/storage/driver.js";
import { FsStorageDriver } from "../src/storage/fs-driver.js";
import { thumbnailKeyOf } from "../src/storage/object-keys.js";
import { deleteFileObjects } from "../src/uploads/delete-file-objects.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { directUpload, listObjects, PDF, uploaded } from "./uploads-helpers.js";

/** An fs driver that counts puts under variants/ (each is one render) and reads (get, open) of them. */
class CountingStorage extends FsStorageDriver {
  variantPuts = 0;
  variantGets = 0;
  override async put(key: string, body: Readable, options?: PutOptions) {
    if (key.startsWith("variants/")) this.variantPuts++;
    return super.put(key, body, options);
  }
  override async get(key: string, options?: { range?: ByteRange }) {
    if (key.startsWith("variants/")) this.variantGets++;
    return super.get(key, options);
  }
  override async open(key: string) {
    if (key.startsWith("variants/")) this.variantGets++;
    return super.open(key);
  }
}

let t: TestApp;
let storage: CountingStorage;
let ws: string;
let png: Buffer; // 400x300
let storageKey: string;

beforeAll(async () => {
  const { mkdtemp } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  storage = new CountingStorage(await mkdtemp(join(tmpdir(), "trove-variants-")));
  t = await createTestApp({ storage: storage as StorageDriver });
  ws = t.workspace.workspaceNo;
  png = await solid(400, 300, { r: 200, g: 30, b: 30 }, "png");
  const body = uploaded(await directUpload(t, { file_name: "red.png", folder: "pics" }, { content: png }));
  storageKey = (await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } })).storageKey;
});
afterAll(async () => {
  await t?.close();
  const { rm } = await import("node:fs/promises");
  await rm(storage.root, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers });

describe("delivery-time transforms", () => {
  it("renders w_100 with the aspect ratio kept, then serves it from the cache", async () => {
    const before = storage.variantPuts;
    const first = await get(`/assets/${ws}/w_100/pics/red.png`);
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toBe("image/png");
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(first.headers["cache-control"]).toContain("max-age");
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{32}-[0-9a-f]{16}"$/);
    expect(first.headers.vary).toBeUndefined();
    expect(Number(first.headers["content-length"])).toBe(first.rawPayload.length);
    expect(await sharp(first.rawPayload).metadata()).toMatchObject({ format: "png", width: 100, height: 75 });
    expect(storage.variantPuts).toBe(before + 1);
    const cached = await listObjects(storage.root);
    expect(cached.filter((key) => key.startsWith(variantCachePrefix(storageKey)))).toHaveLength(1);

    const reads = storage.variantGets;
    const second = await get(`/assets/${ws}/w_100/pics/red.png`);
    expect(second.statusCode).toBe(200);
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(second.headers["content-type"]).toBe("image/png");
    expect(storage.variantGets).toBe(reads + 1); // opened once: the type follows from the transform
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(Buffer.compare(second.rawPayload, first.rawPayload)).toBe(0);
    expect(storage.variantPuts).toBe(before + 1); // not rendered again
  });

  it("shares one cache entry between equal transforms written differently", async () => {
    const a = await get(`/assets/${ws}/h_60,w_80,c_fill/pics/red.png`);
    const b = await get(`/assets/${ws}/w_80,h_60/pics/red.png`);
    expect(a.headers["x-cache"]).toBe("MISS");
    expect(b.headers["x-cache"]).toBe("HIT");
    expect(await sharp(b.rawPayload).metadata()).toMatchObject({ width: 80, height: 60 });
  });

  it("negotiates f_auto from Accept and always sends Vary: Accept", async () => {
    const url = `/assets/${ws}/w_50,f_auto/pics/red.png`;
    const avif = await get(url, { accept: "image/avif,image/webp,*/*" });
    expect(avif.headers["content-type"]).toBe("image/avif");
    expect(avif.headers.vary).toBe("Accept");
    const webp = await get(url, { accept: "image/webp,*/*" });
    expect(webp.headers["content-type"]).toBe("image/webp");
    expect(webp.headers.vary).toBe("Accept");
    expect((await sharp(webp.rawPayload).metadata()).format).toBe("webp");
    const legacy = await get(url, { accept: "*/*" });
    expect(legacy.headers["content-type"]).toBe("image/jpeg");
    expect(new Set([avif.headers.etag, webp.headers.etag, legacy.headers.etag]).size).toBe(3);
    // Hits keep Vary and the negotiated type.
    const again = await get(url, { accept: "image/webp" });
    expect(again.headers["x-cache"]).toBe("HIT");
    expect(again.headers["content-type"]).toBe("image/webp");
    expect(again.headers.vary).toBe("Accept");
    // 304 too.
    const notModified = await get(url, { accept: "image/webp", "if-none-match": String(webp.headers.etag) });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers.vary).toBe("Accept");
  });

  it("answers 304 to If-None-Match, without rendering", async () => {
    const first = await get(`/assets/${ws}/w_120,e_grayscale/pics/red.png`);
    const puts = storage.variantPuts;
    const res = await get(`/assets/${ws}/w_120,e_grayscale/pics/red.png`, {
      "if-none-match": `W/"x", ${first.headers.etag}`,
    });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload.length).toBe(0);
    expect(storage.variantPuts).toBe(puts);
  });

  it("renders chained steps (several path segments)", async () => {
    const res = await get(`/assets/${ws}/w_200/r_90/pics/red.png`);
    expect(res.statusCode).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 150, height: 200 });
  });

  it("HEAD gives the headers without a body", async () => {
    const res = await t.app.inject({ method: "HEAD", url: `/assets/${ws}/w_100/pics/red.png` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(Number(res.headers["content-length"])).toBeGreaterThan(0);
    expect(res.rawPayload.length).toBe(0);
  });

  it("400 naming the directive for an invalid transform", async () => {
    const bad = await get(`/assets/${ws}/w_abc/pics/red.png`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: "Validation failed", message: expect.stringMatching(/^w_abc: /) });
    const range = await get(`/assets/${ws}/q_200/pics/red.png`);
    expect(range.json().message).toBe("q_200: quality must be 1..100");
    const huge = await get(`/assets/${ws}/w_8000,h_8000,c_scale,fl_upscale/pics/red.png`);
    expect(huge.statusCode).toBe(400);
  });

  it("404 when the path after the transform names no file; folders are not transforms", async () => {
    expect((await get(`/assets/${ws}/w_100/pics/missing.png`)).statusCode).toBe(404);
    expect((await get(`/assets/${ws}/w_100/red.png`)).statusCode).toBe(404);
    expect((await get(`/assets/${ws}/my_photos/red.png`)).statusCode).toBe(404);
    expect((await get(`/assets/nosuchws/w_100/pics/red.png`)).statusCode).toBe(404);
  });

  it("refuses folders named like a transform, and a row at such a path never replaces a variant", async () => {
    const refused = await directUpload(
      t,
      { file_name: "evil.txt", folder: "w_100/pics" },
      { content: Buffer.from("attacker bytes") },
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/must not read as a transformation step \("w_100"\)/);

    // A row stored under a transform-shaped path before names were checked: the URL still
    // means "w_100 of pics/red.png", never the row's own bytes.
    const legacy = uploaded(
      await directUpload(t, { file_name: "evil.txt" }, { content: Buffer.from("attacker bytes") }),
    );
    await t.app.db.file.update({ where: { id: legacy.id }, data: { path: "w_100/pics/red.png" } });
    const res = await get(`/assets/${ws}/w_100/pics/red.png`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 100, height: 75 });
    await t.app.db.file.delete({ where: { id: legacy.id } });
  });

  it("renders the thumbnail on its first request, caches it at the file's thumbnailKey", async () => {
    const body = uploaded(await directUpload(t, { file_name: "thumb.png" }, { content: png }));
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect(row.thumbnailKey).toBe(thumbnailKeyOf(row.storageKey));
    // The upload rendered nothing.
    expect(await storage.exists(row.thumbnailKey as string)).toBe(false);
    const puts = storage.variantPuts;
    const first = await get(new URL(body.thumbnail as string).pathname);
    expect(first.statusCode).toBe(200);
    expect(first.headers["x-cache"]).toBe("MISS");
    expect(first.headers["content-type"]).toBe("image/webp");
    expect(await sharp(first.rawPayload).metadata()).toMatchObject({
      format: "webp",
      width: 256,
      height: 192,
    });
    expect(storage.variantPuts).toBe(puts + 1);
    expect(await storage.exists(row.thumbnailKey as string)).toBe(true);
    const second = await get(new URL(body.thumbnail as string).pathname);
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(second.headers["content-type"]).toBe("image/webp");
    expect(Buffer.compare(second.rawPayload, first.rawPayload)).toBe(0);
    expect(storage.variantPuts).toBe(puts + 1);
  });

  it("never enlarges a thumbnail", async () => {
    const small = await solid(100, 40, { r: 1, g: 2, b: 3 }, "jpeg");
    const body = uploaded(await directUpload(t, { file_name: "small.jpg" }, { content: small }));
    const res = await get(new URL(body.thumbnail as string).pathname);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: "webp", width: 100, height: 40 });
  });

  it("labels a cached variant whose format depends on alpha from its bytes", async () => {
    // f_auto for a client without AVIF/WebP: png with alpha, else jpeg.
    const alpha = await solid(40, 30, { r: 9, g: 8, b: 7, alpha: 0.5 }, "png");
    uploaded(await directUpload(t, { file_name: "alpha.png" }, { content: alpha }));
    const first = await get(`/assets/${ws}/w_20,f_auto/alpha.png`, { accept: "*/*" });
    expect(first.headers["content-type"]).toBe("image/png");
    const reads = storage.variantGets;
    const second = await get(`/assets/${ws}/w_20,f_auto/alpha.png`, { accept: "*/*" });
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(second.headers["content-type"]).toBe("image/png");
    expect(storage.variantGets).toBe(reads + 2); // its head, then the whole
  });

  it("a no-op transform serves the file itself", async () => {
    const res = await get(`/assets/${ws}/r_0/pics/red.png`);
    expect(res.statusCode).toBe(200);
    expect(Buffer.compare(res.rawPayload, png)).toBe(0);
  });

  it("400 for a transform on a non-image", async () => {
    uploaded(await directUpload(t, { file_name: "doc.pdf" }, { content: PDF }));
    const res = await get(`/assets/${ws}/w_100/doc.pdf`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/raster images only/);
  });

  it("refuses every transform of an SVG, no-ops included, and sandboxes every response", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const body = uploaded(await directUpload(t, { file_name: "x.svg" }, { content: svg }));
    expect(body.mime_type).toBe("image/svg+xml");
    const responses = {
      plain: await get(`/assets/${ws}/x.svg`),
      revalidated: await get(`/assets/${ws}/x.svg`, { "if-none-match": `"${body.hash ?? ""}"` }),
      range: await get(`/assets/${ws}/x.svg`, { range: "bytes=9999-" }),
      missing: await get(`/assets/${ws}/nothing.svg`),
      invalid: await get(`/assets/${ws}/w_0/x.svg`),
      variant: await get(`/assets/${ws}/w_10/pics/red.png`),
      ...Object.fromEntries(
        ["r_0", "r_360", "br_0", "e_brightness:0"].map((noop) => [noop, get(`/assets/${ws}/${noop}/x.svg`)]),
      ),
    };
    for (const [name, pending] of Object.entries(responses)) {
      const res = await pending;
      expect(res.headers["x-content-type-options"], name).toBe("nosniff");
      expect(res.headers["content-security-policy"], name).toMatch(/default-src 'none'.*sandbox/);
      if (name.includes("_")) {
        expect(res.statusCode, name).toBe(400);
        expect(res.headers["content-type"], name).toMatch(/^application\/json/);
      }
    }
    expect((await responses.plain).statusCode).toBe(200);
    expect((await responses.range).statusCode).toBe(416);
  });

  it("never serves variants of a private or deleted file, and DELETE removes them from storage", async () => {
    const body = uploaded(await directUpload(t, { file_name: "gone.png" }, { content: png }));
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect((await get(`/assets/${ws}/w_64/gone.png`)).statusCode).toBe(200);
    expect((await get(`/assets/${ws}/w_32/gone.png`)).statusCode).toBe(200);
    const prefix = variantCachePrefix(row.storageKey);
    expect((await listObjects(storage.root)).filter((key) => key.startsWith(prefix))).toHaveLength(2);
    // A variant an older renderer version cached goes with the file too.
    const older = `${variantCachePrefix(row.storageKey, 1)}${"0".repeat(64)}`;
    await storage.put(older, Readable.from([Buffer.from("v1 bytes")]));
    expect(await listObjects(storage.root)).toContain(older);

    await t.app.db.file.update({ where: { id: row.id }, data: { isPrivate: true } });
    expect((await get(`/assets/${ws}/w_64/gone.png`)).statusCode).toBe(404);
    await t.app.db.file.update({ where: { id: row.id }, data: { isPrivate: false } });

    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/files/${row.fileNo}`,
      headers: { "x-api-key": t.keys.private },
    });
    expect(deleted.statusCode).toBe(200);
    const left = await listObjects(storage.root);
    expect(left.filter((key) => key.startsWith(prefix))).toEqual([]);
    expect(left).not.toContain(older);
    expect(left).not.toContain(row.storageKey);
    expect(left).not.toContain(row.thumbnailKey);
    expect((await get(`/assets/${ws}/w_64/gone.png`)).statusCode).toBe(404);
    // Idempotent.
    await deleteFileObjects(t.app.storage, row);
  });
});
