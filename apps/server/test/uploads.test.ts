// POST /api/v1/uploads (spec endpoint 1): every field, the sniffed type, hashes and duplicates,
// names, and every error row of the upload envelope. Storage is the fs driver in a temp dir, so
// "nothing stored" and "nothing outside the root" are checked on the directory itself.
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { uploadErrorSchema } from "@trove/schema";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { hashStream } from "../src/content-hash/index.js";
import { FsStorageDriver } from "../src/storage/fs-driver.js";
import { thumbnailKeyOf } from "../src/storage/object-keys.js";
import { KEEP_IN_MEMORY_BYTES } from "../src/uploads/receive-direct-upload.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { pngBomb, solid } from "./support/test-images.js";
import {
  directUpload,
  listFilesBelow,
  listObjects,
  multipartBody,
  PDF,
  pathOf,
  uploaded,
} from "./uploads-helpers.js";

const UNAUTHORIZED = {
  success: false,
  error: "Unauthorized",
  errorCode: "UNAUTHORIZED",
  message: "Invalid or missing API key",
};

let t: TestApp;
let png: Buffer; // 400x300, no alpha
let jpeg: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  png = await solid(400, 300, { r: 10, g: 120, b: 200 }, "png");
  jpeg = await solid(64, 48, { r: 200, g: 100, b: 50 }, "jpeg");
});
afterAll(async () => {
  await t?.close();
});

function expectUploadError(res: { statusCode: number; json(): unknown }, status: number, errorCode: string) {
  expect(res.statusCode).toBe(status);
  const body = uploadErrorSchema.parse(res.json());
  expect(body.success).toBe(false);
  expect(body.errorCode).toBe(errorCode);
  return body;
}

describe("direct upload: fields", () => {
  it("stores an image with every optional field and answers the flat upload response", async () => {
    const res = await directUpload(
      t,
      {
        file_name: "sunset.png",
        folder: "photos/2024/summer",
        tags: "beach, holiday ,,sun",
        metadata: JSON.stringify({ camera: "x100", rating: 5, nested: { a: [1, 2] } }),
        custom_id: "client-ref-42",
        random_prefix: "false",
      },
      { content: png, type: "image/png" },
    );
    const body = uploaded(res);
    expect(body).toMatchObject({
      workspace_id: t.workspace.id,
      name: "sunset.png",
      path: "photos/2024/summer/sunset.png",
      width: 400,
      height: 300,
      size: png.length,
      mime_type: "image/png",
      tags: ["beach", "holiday", "sun"],
      metadata: { camera: "x100", rating: 5, nested: { a: [1, 2] } },
      custom_id: "client-ref-42",
      is_duplicate: false,
      upload_source: "direct",
      extension: "png",
      format: "png",
      is_private: false,
    });
    expect(body.file_no).toMatch(/^\d+$/);
    expect(body.url).toBe(`${t.config.assetsUrl}/${t.workspace.workspaceNo}/photos/2024/summer/sunset.png`);
    expect(body.hash).toBe((await hashStream([png])).hash);
    expect(Date.parse(body.created_at)).toBeGreaterThan(Date.now() - 60_000);

    // Nested folders were created as needed, and folder_no is the deepest one.
    const folders = await t.app.db.folder.findMany({
      where: { workspaceId: t.workspace.id },
      orderBy: { path: "asc" },
    });
    expect(folders.map((f) => f.path)).toEqual(["photos", "photos/2024", "photos/2024/summer"]);
    const summer = folders[2];
    expect(body.folder_no).toBe(summer?.folderNo);
    expect(summer?.parentId).toBe(folders[1]?.id);

    // The row records what the response says.
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect(row).toMatchObject({ uploadSource: "direct", originalUrl: null, transformString: null });
    expect(row.createdBy).not.toBeNull();

    // The URL serves the bytes, the thumbnail URL a WebP inside 256x256.
    const file = await t.app.inject({ method: "GET", url: pathOf(body.url) });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(Buffer.compare(file.rawPayload, png)).toBe(0);
    expect(body.thumbnail).toMatch(/\/w_256,h_256,c_limit,f_webp\/photos\/2024\/summer\/sunset\.png$/);
    const thumb = await t.app.inject({ method: "GET", url: pathOf(body.thumbnail as string) });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers["content-type"]).toBe("image/webp");
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 256, height: 192 });
  });

  it("accepts the text fields after the file", async () => {
    const body = uploaded(
      await directUpload(
        t,
        { file_name: "after.jpg", folder: "late", tags: "x" },
        { content: jpeg, type: "image/jpeg" },
        { fileFirst: true },
      ),
    );
    expect(body).toMatchObject({
      name: "after.jpg",
      path: "late/after.jpg",
      tags: ["x"],
      width: 64,
      height: 48,
    });
  });

  it("applies the store-time transform: stored bytes, dimensions, format and name follow the output", async () => {
    const body = uploaded(
      await directUpload(t, { file_name: "wide.png", transform: "w_100,f_webp" }, { content: png }),
    );
    expect(body).toMatchObject({
      name: "wide.webp",
      width: 100,
      height: 75,
      format: "webp",
      extension: "webp",
      mime_type: "image/webp",
    });
    const served = await t.app.inject({ method: "GET", url: pathOf(body.url) });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({
      format: "webp",
      width: 100,
      height: 75,
    });
    expect(body.size).toBe(served.rawPayload.length);
    expect(body.hash).toBe((await hashStream([served.rawPayload])).hash);
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect(row.transformString).toBe("w_100,f_webp");
    // Only the transformed object remains for this file (the original is gone); the thumbnail is
    // rendered from it by delivery, on its first request.
    const objects = (await listObjects(t.storageDir)).filter((key) => key.includes(body.id));
    expect(objects).toEqual([row.storageKey]);
    expect(row.thumbnailKey).toBe(thumbnailKeyOf(row.storageKey));
    expect(await t.app.storage.exists(row.thumbnailKey as string)).toBe(false);
  });

  it("crops and converts to jpeg (w, h, c_fill, q)", async () => {
    const body = uploaded(
      await directUpload(
        t,
        { file_name: "square", transform: "w_50,h_50,c_fill,f_jpg,q_70" },
        { content: png },
      ),
    );
    expect(body).toMatchObject({
      name: "square.jpg",
      width: 50,
      height: 50,
      format: "jpeg",
      mime_type: "image/jpeg",
    });
  });

  it("lets the bytes decide the type, not the client's name or Content-Type", async () => {
    const body = uploaded(
      await directUpload(
        t,
        { file_name: "photo.png" },
        { content: jpeg, filename: "photo.png", type: "image/png" },
      ),
    );
    expect(body).toMatchObject({
      name: "photo.jpg",
      mime_type: "image/jpeg",
      format: "jpeg",
      extension: "jpg",
    });
    const served = await t.app.inject({ method: "GET", url: pathOf(body.url) });
    expect(served.headers["content-type"]).toBe("image/jpeg");
  });

  it("gives PDFs and unknown binaries null dimensions and no thumbnail", async () => {
    const pdf = uploaded(await directUpload(t, { file_name: "report" }, { content: PDF, type: "image/png" }));
    expect(pdf).toMatchObject({
      name: "report.pdf",
      mime_type: "application/pdf",
      format: "pdf",
      extension: "pdf",
      width: null,
      height: null,
      thumbnail: null,
    });
    const blob = randomBytes(2048);
    blob[0] = 0x01; // no known signature
    const bin = uploaded(await directUpload(t, { file_name: "data.xyzq" }, { content: blob }));
    expect(bin).toMatchObject({
      name: "data.xyzq",
      mime_type: "application/octet-stream",
      extension: "xyzq",
      width: null,
      height: null,
      thumbnail: null,
      size: 2048,
    });
    const text = uploaded(
      await directUpload(t, { file_name: "README" }, { content: Buffer.from("hello\n") }),
    );
    expect(text).toMatchObject({ name: "README.txt", mime_type: "text/plain", width: null });
  });

  it("hashes equal content equally and flags the second upload as a duplicate", async () => {
    const content = await solid(30, 30, { r: 1, g: 2, b: 3 }, "png");
    const first = uploaded(await directUpload(t, { file_name: "one.png" }, { content }));
    const second = uploaded(
      await directUpload(t, { file_name: "two.png", folder: "elsewhere" }, { content }),
    );
    expect(first.is_duplicate).toBe(false);
    expect(second.is_duplicate).toBe(true);
    expect(second.hash).toBe(first.hash);
    expect(second.id).not.toBe(first.id);
    const other = uploaded(
      await directUpload(
        t,
        { file_name: "three.png" },
        { content: Buffer.concat([content, Buffer.from([0])]) },
      ),
    );
    expect(other.is_duplicate).toBe(false);
    expect(other.hash).not.toBe(first.hash);
  });

  it("never overwrites: a taken name gets the next free -n suffix", async () => {
    const content = Buffer.from("same name, different days");
    const names: string[] = [];
    for (const text of ["a", "b", "c"]) {
      const body = uploaded(
        await directUpload(
          t,
          { file_name: "notes.txt", folder: "dups" },
          { content: Buffer.concat([content, Buffer.from(text)]) },
        ),
      );
      names.push(body.name);
    }
    expect(names).toEqual(["notes.txt", "notes-1.txt", "notes-2.txt"]);
    const served = await t.app.inject({
      method: "GET",
      url: `/assets/${t.workspace.workspaceNo}/dups/notes.txt`,
    });
    expect(served.body).toBe("same name, different daysa");
  });

  it("random_prefix appends a random suffix to the stored name", async () => {
    const a = uploaded(
      await directUpload(t, { file_name: "cat.png", random_prefix: "true" }, { content: png }),
    );
    const b = uploaded(
      await directUpload(t, { file_name: "cat.png", random_prefix: "true" }, { content: png }),
    );
    expect(a.name).toMatch(/^cat-[a-z0-9]{8}\.png$/);
    expect(b.name).toMatch(/^cat-[a-z0-9]{8}\.png$/);
    expect(a.name).not.toBe(b.name);
  });

  it("accepts a public key and treats blank optional fields as absent", async () => {
    const body = uploaded(
      await directUpload(
        t,
        { file_name: "public.jpg", folder: "", transform: "", metadata: "", tags: "", custom_id: "" },
        { content: jpeg },
        { key: t.keys.public },
      ),
    );
    expect(body).toMatchObject({
      path: "public.jpg",
      folder_no: null,
      tags: [],
      metadata: {},
      custom_id: null,
    });
  });

  it("accepts Authorization: Bearer", async () => {
    const res = await directUpload(
      t,
      { file_name: "bearer.jpg" },
      { content: jpeg },
      {
        key: null,
        headers: { authorization: `Bearer ${t.keys.public}` },
      },
    );
    expect(uploaded(res).name).toBe("bearer.jpg");
  });
});

describe("direct upload: errors", () => {
  let before: string[];
  beforeEach(async () => {
    before = await listObjects(t.storageDir);
  });
  const expectNothingStored = async () => expect(await listObjects(t.storageDir)).toEqual(before);

  it("401 without a key, exact body", async () => {
    const res = await directUpload(t, { file_name: "a.png" }, { content: png }, { key: null });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHORIZED);
    await expectNothingStored();
  });

  it("401 with an unknown key", async () => {
    const res = await directUpload(t, { file_name: "a.png" }, { content: png }, { key: "trove_pk_nope" });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHORIZED);
  });

  it("400 INVALID_METADATA for metadata that is not a JSON object", async () => {
    for (const metadata of ["{not json", "[1,2]", "42"]) {
      const res = await directUpload(t, { file_name: "a.png", metadata }, { content: png });
      const body = expectUploadError(res, 400, "INVALID_METADATA");
      expect(body.message).toMatch(/^metadata: /);
    }
    await expectNothingStored();
  });

  it("400 INVALID_METADATA also when metadata arrives after the file (the stored bytes are removed)", async () => {
    const res = await directUpload(
      t,
      { file_name: "a.png", metadata: "{oops" },
      { content: png },
      { fileFirst: true },
    );
    expectUploadError(res, 400, "INVALID_METADATA");
    await expectNothingStored();
  });

  it("400 INVALID_TRANSFORM naming the directive, before or after the file", async () => {
    const early = await directUpload(t, { file_name: "a.png", transform: "w_100,q_200" }, { content: png });
    expect(expectUploadError(early, 400, "INVALID_TRANSFORM").message).toBe("q_200: quality must be 1..100");
    const late = await directUpload(
      t,
      { file_name: "a.png", transform: "zz_1" },
      { content: png },
      { fileFirst: true },
    );
    expect(expectUploadError(late, 400, "INVALID_TRANSFORM").message).toContain("zz_1");
    await expectNothingStored();
  });

  it("400 without a file", async () => {
    const res = await directUpload(t, { file_name: "a.png" }, null);
    expect(expectUploadError(res, 400, "VALIDATION_FAILED").message).toBe("file is required");
  });

  it("400 EMPTY_FILE for a 0-byte file, before or after the fields; nothing stored", async () => {
    for (const fileFirst of [false, true]) {
      const res = await directUpload(
        t,
        { file_name: "empty.png" },
        { content: Buffer.alloc(0) },
        { fileFirst },
      );
      const body = expectUploadError(res, 400, "EMPTY_FILE");
      expect(body).toMatchObject({ error: "Validation failed", message: "File is empty" });
    }
    await expectNothingStored();
  });

  it("400 without file_name", async () => {
    const res = await directUpload(t, {}, { content: png, filename: "from-part.png" });
    expect(expectUploadError(res, 400, "VALIDATION_FAILED").message).toBe("file_name is required");
    await expectNothingStored();
  });

  it("400 for a file in another field, or two files", async () => {
    const { body, contentType } = await multipartBody([
      ["file_name", "a.png"],
      ["image", png, "a.png", "image/png"],
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads",
      headers: { "content-type": contentType, "x-api-key": t.keys.private },
      payload: body,
    });
    expect(expectUploadError(res, 400, "VALIDATION_FAILED").message).toMatch(/send the file as "file"/);
    const two = await multipartBody([
      ["file_name", "a.png"],
      ["file", png, "a.png"],
      ["file", png, "b.png"],
    ]);
    const res2 = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads",
      headers: { "content-type": two.contentType, "x-api-key": t.keys.private },
      payload: two.body,
    });
    expectUploadError(res2, 400, "VALIDATION_FAILED");
    await expectNothingStored();
  });

  it("415 in the upload envelope for a body that is not multipart/form-data", async () => {
    const json = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads",
      headers: { "x-api-key": t.keys.private },
      payload: { file_name: "a.png" },
    });
    expect(expectUploadError(json, 415, "UNSUPPORTED_MEDIA_TYPE").error).toBe("Unsupported Media Type");
    const raw = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads",
      headers: { "x-api-key": t.keys.private, "content-type": "image/png" },
      payload: png,
    });
    expectUploadError(raw, 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("400 for a malformed multipart body", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads",
      headers: { "x-api-key": t.keys.private, "content-type": "multipart/form-data; boundary=xyz" },
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    });
    expect(res.statusCode).toBe(400);
    uploadErrorSchema.parse(res.json());
    await expectNothingStored();
  });

  it("400 IMAGE_TOO_LARGE for a decompression bomb, nothing stored", async () => {
    const bomb = pngBomb(20_000, 20_000);
    expect(bomb.length).toBeLessThan(2000);
    const res = await directUpload(t, { file_name: "bomb.png" }, { content: bomb });
    expect(expectUploadError(res, 400, "IMAGE_TOO_LARGE").message).toMatch(/pixel/);
    await expectNothingStored();
  });

  it("400 UNSUPPORTED_MEDIA_TYPE for a transform on a non-image", async () => {
    const res = await directUpload(t, { file_name: "r.pdf", transform: "w_100" }, { content: PDF });
    expect(expectUploadError(res, 400, "UNSUPPORTED_MEDIA_TYPE").message).toMatch(/raster images only/);
    await expectNothingStored();
  });

  it("400 REMOTE_URL_FORBIDDEN for a private webhook_url, before anything is stored", async () => {
    for (const webhook_url of [
      "http://10.0.0.1/hook",
      "http://169.254.169.254/latest",
      "http://127.0.0.1:9/x",
    ]) {
      const res = await directUpload(
        t,
        { file_name: "a.png", webhook_url },
        { content: png },
        { fileFirst: true },
      );
      expect(expectUploadError(res, 400, "REMOTE_URL_FORBIDDEN").message).toMatch(/webhook_url/);
    }
    const bad = await directUpload(t, { file_name: "a.png", webhook_url: "ftp://x.test/" }, { content: png });
    expectUploadError(bad, 400, "VALIDATION_FAILED");
    expect(await t.app.db.job.count()).toBe(0);
    await expectNothingStored();
  });

  it("400 for other invalid fields (random_prefix, long custom_id)", async () => {
    const a = await directUpload(t, { file_name: "a.png", random_prefix: "yes" }, { content: png });
    expect(expectUploadError(a, 400, "VALIDATION_FAILED").message).toMatch(/^random_prefix/);
    const b = await directUpload(t, { file_name: "a.png", custom_id: "x".repeat(300) }, { content: png });
    expect(expectUploadError(b, 400, "VALIDATION_FAILED").message).toMatch(/^custom_id/);
    await expectNothingStored();
  });

  it("refuses path traversal in file_name and folder; nothing lands outside the storage root", async () => {
    const dataBefore = await listFilesBelow(t.dataDir);
    const attempts: Array<Record<string, string>> = [
      { file_name: "../../escape.png" },
      { file_name: "..\\..\\escape.png" },
      { file_name: ".." },
      { file_name: "a/b.png" },
      { file_name: "ok.png", folder: "../../etc" },
      { file_name: "ok.png", folder: "a/../../b" },
      { file_name: "ok.png", folder: "a\\..\\b" },
      { file_name: "ok.png", folder: "./x" },
      { file_name: "nul\u0000.png" },
    ];
    for (const fields of attempts) {
      for (const fileFirst of [false, true]) {
        const res = await directUpload(
          t,
          fields,
          { content: png, filename: "../../part.png" },
          { fileFirst },
        );
        expectUploadError(res, 400, "VALIDATION_FAILED");
      }
    }
    await expectNothingStored();
    expect(await listFilesBelow(t.dataDir)).toEqual(dataBefore);
    // The client's part filename is never used as a path either.
    const body = uploaded(
      await directUpload(
        t,
        { file_name: "safe.png" },
        { content: png, filename: "../../../../tmp/evil.png" },
      ),
    );
    expect(body.path).toBe("safe.png");
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect(row.storageKey.startsWith(`${t.workspace.id}/${body.id}/`)).toBe(true);
    const outsideStorage = (files: string[]) => files.filter((file) => !file.startsWith("storage/"));
    expect(outsideStorage(await listFilesBelow(t.dataDir))).toEqual(outsideStorage(dataBefore));
  });
});

describe("direct upload: size limit", () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ config: { maxUploadBytes: 1000 } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it("413 FILE_TOO_LARGE past the limit, nothing stored; at the limit is fine", async () => {
    const res = await directUpload(small, { file_name: "big.bin" }, { content: randomBytes(5000) });
    const body = expectUploadError(res, 413, "FILE_TOO_LARGE");
    expect(body.message).toMatch(/1000 bytes/);
    const late = await directUpload(
      small,
      { file_name: "big.bin" },
      { content: randomBytes(1001) },
      { fileFirst: true },
    );
    expectUploadError(late, 413, "FILE_TOO_LARGE");
    expect(await listObjects(small.storageDir)).toEqual([]);
    const exact = uploaded(
      await directUpload(small, { file_name: "exact.bin" }, { content: randomBytes(1000) }),
    );
    expect(exact.size).toBe(1000);
  });
});

describe("direct upload with a transform: only the output is written", () => {
  let spied: TestApp;
  let storageRoot: string;
  /** Keys `put` was called with, in order. */
  const puts: string[] = [];
  beforeAll(async () => {
    storageRoot = await mkdtemp(join(tmpdir(), "trove-recording-storage-"));
    class RecordingFsDriver extends FsStorageDriver {
      override async put(...args: Parameters<FsStorageDriver["put"]>) {
        puts.push(args[0]);
        return super.put(...args);
      }
    }
    spied = await createTestApp({ storage: new RecordingFsDriver(storageRoot) });
  });
  afterAll(async () => {
    await spied?.close();
    await rm(storageRoot, { recursive: true, force: true });
  });
  beforeEach(() => {
    puts.length = 0;
  });

  it("a transform before the file: the original is held in memory, one put (the output)", async () => {
    const body = uploaded(
      await directUpload(spied, { file_name: "wide.png", transform: "w_100,f_webp" }, { content: png }),
    );
    const row = await spied.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect(puts).toEqual([row.storageKey]);
    expect(row.storageKey.endsWith("/wide.webp")).toBe(true);
    const served = await spied.app.inject({ method: "GET", url: pathOf(body.url) });
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: "webp", width: 100 });
  });

  it("a transform that changes nothing keeps the held original, hashed: one put", async () => {
    const body = uploaded(
      await directUpload(spied, { file_name: "same.png", transform: "r_0/br_0" }, { content: png }),
    );
    expect(body).toMatchObject({ size: png.length, hash: (await hashStream([png])).hash });
    const row = await spied.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect(puts).toEqual([row.storageKey]);
    const served = await spied.app.inject({ method: "GET", url: pathOf(body.url) });
    expect(Buffer.compare(served.rawPayload, png)).toBe(0);
  });

  it("a small file is held whatever the field order: one put (the output)", async () => {
    const body = uploaded(
      await directUpload(
        spied,
        { file_name: "late.png", transform: "w_100,f_webp" },
        { content: png },
        { fileFirst: true },
      ),
    );
    expect(body.width).toBe(100);
    const row = await spied.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect(puts).toEqual([row.storageKey]);
  });

  it("a small file without a transform is written once, under the key it was received for", async () => {
    const body = uploaded(await directUpload(spied, { file_name: "plain.png" }, { content: png }));
    const row = await spied.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect(puts).toEqual([row.storageKey]);
    expect(await readFile(join(storageRoot, row.storageKey))).toEqual(png);
  });

  it("a file over the memory limit, transform after it: the original is stored, then replaced (two puts)", async () => {
    const side = 400;
    const noisy = await sharp(randomBytes(side * side * 3), {
      raw: { width: side, height: side, channels: 3 },
    })
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(KEEP_IN_MEMORY_BYTES);
    const body = uploaded(
      await directUpload(
        spied,
        { file_name: "late-big.png", transform: "w_100,f_webp" },
        { content: noisy },
        { fileFirst: true },
      ),
    );
    expect(body.width).toBe(100);
    expect(puts).toHaveLength(2);
    const row = await spied.app.db.file.findUniqueOrThrow({ where: { id: body.id } });
    expect(puts[1]).toBe(row.storageKey);
    expect(await listObjects(storageRoot)).not.toContain(puts[0]);
  });

  it("a refused transform writes nothing at all", async () => {
    const before = await listObjects(storageRoot);
    const res = await directUpload(spied, { file_name: "r.pdf", transform: "w_100" }, { content: PDF });
    expectUploadError(res, 400, "UNSUPPORTED_MEDIA_TYPE");
    const corrupt = Buffer.concat([png.subarray(0, 64), Buffer.alloc(4096)]);
    const broken = await directUpload(spied, { file_name: "c.png", transform: "w_10" }, { content: corrupt });
    expect(broken.statusCode).toBe(400);
    expect(puts).toEqual([]);
    expect(await listObjects(storageRoot)).toEqual(before);
  });
});
