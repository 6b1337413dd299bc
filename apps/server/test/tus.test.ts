// tus 1.0.0 at /api/v1/tus on PGlite + the fs driver, through app.inject: the protocol (OPTIONS,
// creation, creation-with-upload, HEAD, PATCH, termination, expiration), the Trove rules (keys,
// policies, metadata, the other workspace), and the file it becomes (bytes and content hash),
// also when the upload is resumed by a new app instance on the same database and storage.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { hashStream } from "../src/content-hash/index.js";
import { sweepExpiredTusUploads } from "../src/tus/sweep-tus-uploads.js";
import { fsTusBytes, type LocalDriver } from "../src/tus/tus-fs-bytes.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { pattern } from "./support/test-images.js";
import { metadata, PATCH_TYPE, TUS, testBytes, tusClient } from "./tus-helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const { create, patch, head, storedFile, idOf } = tusClient(() => t);

describe("tus discovery", () => {
  it("OPTIONS answers the version, extensions and max size without a key", async () => {
    const res = await t.app.inject({ method: "OPTIONS", url: TUS });
    expect(res.statusCode).toBe(204);
    expect(res.headers["tus-resumable"]).toBe("1.0.0");
    expect(res.headers["tus-version"]).toBe("1.0.0");
    expect(String(res.headers["tus-extension"]).split(",")).toEqual(
      expect.arrayContaining(["creation", "creation-with-upload", "termination", "expiration"]),
    );
    expect(Number(res.headers["tus-max-size"])).toBe(t.config.multipart.maxFileBytes);
  });

  it("a browser preflight allows the tus request headers", async () => {
    const res = await t.app.inject({
      method: "OPTIONS",
      url: `${TUS}/0193a0e0-0000-7000-8000-000000000000`,
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "tus-resumable,upload-offset,content-type,x-api-key",
      },
    });
    expect(res.statusCode).toBe(204);
    const allowed = String(res.headers["access-control-allow-headers"]).toLowerCase();
    for (const header of [
      "tus-resumable",
      "upload-offset",
      "upload-length",
      "upload-metadata",
      "x-api-key",
    ]) {
      expect(allowed).toContain(header);
    }
  });
});

describe("tus upload", () => {
  it("creates, takes the bytes in two PATCHes, and registers the file with its hash", async () => {
    const bytes = testBytes(3 * 1024 * 1024 + 17);
    const created = await create(bytes.length, { filename: "data.bin", folder: "tus/docs", tags: "a,b" });
    expect(created.statusCode).toBe(201);
    expect(created.headers["upload-expires"]).toBeTruthy();
    expect(created.headers.location).toMatch(/^http:\/\/localhost(:80)?\/api\/v1\/tus\//);
    const id = idOf(created.headers.location);

    const origin = await t.app.inject({
      method: "PATCH",
      url: `${TUS}/${id}`,
      headers: {
        origin: "https://app.example.com",
        "x-api-key": t.keys.private,
        "tus-resumable": "1.0.0",
        "upload-offset": "0",
        "content-type": PATCH_TYPE,
      },
      payload: bytes.subarray(0, 1024 * 1024 + 5),
    });
    expect(origin.statusCode).toBe(204);
    expect(origin.headers["upload-offset"]).toBe(String(1024 * 1024 + 5));
    const exposed = String(origin.headers["access-control-expose-headers"]).toLowerCase();
    for (const header of ["location", "upload-offset", "upload-expires", "trove-file-no", "trove-file-url"]) {
      expect(exposed).toContain(header);
    }

    const middle = await head(id);
    expect(middle.statusCode).toBe(200);
    expect(middle.headers["upload-offset"]).toBe(String(1024 * 1024 + 5));
    expect(middle.headers["upload-length"]).toBe(String(bytes.length));

    const last = await patch(id, 1024 * 1024 + 5, bytes.subarray(1024 * 1024 + 5));
    expect(last.statusCode).toBe(204);
    expect(last.headers["upload-offset"]).toBe(String(bytes.length));
    const fileNo = String(last.headers["trove-file-no"]);
    expect(fileNo).toMatch(/^\d+$/);
    expect(String(last.headers["trove-file-url"])).toMatch(/^https?:\/\//);

    const file = await storedFile(fileNo);
    expect(file.id).toBe(id);
    expect(file.name).toBe("data.bin");
    expect(file.tags).toEqual(["a", "b"]);
    expect(file.uploadSource).toBe("tus");
    expect(Number(file.size)).toBe(bytes.length);
    expect(file.hash).toBe((await hashStream([bytes])).hash);
    const stored = await hashStream(await t.app.storage.get(file.storageKey));
    expect(stored.size).toBe(bytes.length);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(
      createHash("sha256")
        .update(Buffer.concat(await (await t.app.storage.get(file.storageKey)).toArray()))
        .digest("hex"),
    );

    // Asked again (the answer was lost): the same file; HEAD says the upload is whole.
    const again = await patch(id, bytes.length, Buffer.alloc(0));
    expect(again.statusCode).toBe(204);
    expect(again.headers["trove-file-no"]).toBe(fileNo);
    const done = await head(id);
    expect(done.headers["upload-offset"]).toBe(String(bytes.length));
  });

  it("creation-with-upload: a POST with the whole body answers the file (public key)", async () => {
    const png = await pattern(40, 30);
    const res = await t.app.inject({
      method: "POST",
      url: TUS,
      headers: {
        "x-api-key": t.keys.public,
        "tus-resumable": "1.0.0",
        "upload-length": String(png.length),
        "upload-metadata": metadata({ name: "tiny.png", type: "image/png" }),
        "content-type": PATCH_TYPE,
      },
      payload: png,
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers["upload-offset"]).toBe(String(png.length));
    const file = await storedFile(String(res.headers["trove-file-no"]));
    expect(file.mimeType).toBe("image/png");
    expect(file.width).toBe(40);
  });

  it("a PATCH at the wrong offset is 409 and changes nothing", async () => {
    const created = await create(10, { filename: "x.bin" });
    const id = idOf(created.headers.location);
    const res = await patch(id, 3, Buffer.from("abc"));
    expect(res.statusCode).toBe(409);
    expect(res.headers["tus-resumable"]).toBe("1.0.0");
    expect(res.json()).toMatchObject({ success: false });
    expect((await head(id)).headers["upload-offset"]).toBe("0");
  });

  it("a PATCH without the tus Content-Type is 415 in the upload envelope", async () => {
    const id = idOf((await create(10, { filename: "x.bin" })).headers.location);
    const res = await t.app.inject({
      method: "PATCH",
      url: `${TUS}/${id}`,
      headers: {
        "x-api-key": t.keys.private,
        "tus-resumable": "1.0.0",
        "upload-offset": "0",
        "content-type": "application/octet-stream",
      },
      payload: Buffer.from("0123456789"),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ success: false, errorCode: "UNSUPPORTED_MEDIA_TYPE" });
  });

  it("a PATCH past Upload-Length is refused and the upload stays at its offset", async () => {
    const id = idOf((await create(4, { filename: "x.bin" })).headers.location);
    const res = await patch(id, 0, Buffer.from("0123456789"));
    expect(res.statusCode).toBe(413);
    expect((await head(id)).headers["upload-offset"]).toBe("0");
  });

  it("DELETE terminates: bytes and row go, the URL is 404 after", async () => {
    const id = idOf((await create(10, { filename: "x.bin" })).headers.location);
    expect((await patch(id, 0, Buffer.from("01234"))).statusCode).toBe(204);
    const row = await t.app.db.tusUpload.findUniqueOrThrow({ where: { id } });
    expect(await t.app.storage.exists(row.storageKey)).toBe(true);
    const res = await t.app.inject({
      method: "DELETE",
      url: `${TUS}/${id}`,
      headers: { "x-api-key": t.keys.private, "tus-resumable": "1.0.0" },
    });
    expect(res.statusCode).toBe(204);
    expect(await t.app.storage.exists(row.storageKey)).toBe(false);
    expect(await t.app.db.tusUpload.findUnique({ where: { id } })).toBeNull();
    expect((await head(id)).statusCode).toBe(404);
  });

  it("an expired upload answers 410", async () => {
    const id = idOf((await create(10, { filename: "x.bin" })).headers.location);
    await t.app.db.tusUpload.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await head(id)).statusCode).toBe(410);
    expect((await patch(id, 0, Buffer.from("0123456789"))).statusCode).toBe(410);
  });

  it("the sweep removes an expired upload's bytes and row, and only a finished one's row", async () => {
    const open = idOf((await create(10, { filename: "x.bin" })).headers.location);
    expect((await patch(open, 0, Buffer.from("01234"))).statusCode).toBe(204);
    const png = await pattern(8, 8);
    const done = idOf((await create(png.length, { filename: "d.png" })).headers.location);
    const finished = await patch(done, 0, png);
    expect(finished.statusCode).toBe(204);
    const kept = await t.app.db.tusUpload.findUniqueOrThrow({ where: { id: open } });
    const past = new Date(Date.now() - 1000);
    await t.app.db.tusUpload.updateMany({ where: { id: { in: [open, done] } }, data: { expiresAt: past } });

    const removed = await sweepExpiredTusUploads({
      db: t.app.db,
      bytes: fsTusBytes(t.app.storage as LocalDriver),
    });
    expect(removed).toBeGreaterThanOrEqual(2);
    expect(await t.app.storage.exists(kept.storageKey)).toBe(false);
    expect(await t.app.db.tusUpload.count({ where: { id: { in: [open, done] } } })).toBe(0);
    expect(await storedFile(String(finished.headers["trove-file-no"]))).toBeTruthy();
    expect((await head(open)).statusCode).toBe(404);
  });

  it("another workspace's key, and another key of the same workspace, get 404", async () => {
    const id = idOf((await create(10, { filename: "x.bin" })).headers.location);
    expect((await head(id, t.keys.private2)).statusCode).toBe(404);
    const other = await patch(id, 0, Buffer.from("0123456789"), t.keys.private2);
    expect(other.statusCode).toBe(404);
    expect(JSON.stringify(other.json())).toContain("Upload not found");
    expect((await head(id, t.keys.public)).statusCode).toBe(404);
    expect((await head("not-a-uuid")).statusCode).toBe(404);
  });

  it("needs a key: 401 without one", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: TUS,
      headers: {
        "tus-resumable": "1.0.0",
        "upload-length": "10",
        "upload-metadata": metadata({ filename: "x" }),
      },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers["tus-resumable"]).toBe("1.0.0");
  });
});

describe("tus behind a trusted TLS proxy", () => {
  it("gives a Location with the proxy's scheme and host", async () => {
    const proxied = await createTestApp({ config: { trustProxy: 1 } });
    try {
      const res = await proxied.app.inject({
        method: "POST",
        url: TUS,
        headers: {
          "x-api-key": proxied.keys.private,
          "tus-resumable": "1.0.0",
          "upload-length": "10",
          "upload-metadata": metadata({ filename: "x.bin" }),
          "x-forwarded-proto": "https",
          "x-forwarded-host": "media.example.com",
        },
      });
      expect(res.statusCode).toBe(201);
      expect(res.headers.location).toMatch(/^https:\/\/media\.example\.com\/api\/v1\/tus\/[0-9a-f-]{36}$/);
    } finally {
      await proxied.close();
    }
  });
});

describe("tus metadata", () => {
  it.each([
    ["no file name", metadata({ folder: "a" }), /filename/],
    ["a value that is not base64", "filename %%%", /Upload-Metadata must be/],
    ["a bad folder", metadata({ filename: "x.bin", folder: "../up" }), /folder/],
    ["bad tags", metadata({ filename: "x.bin", metadata: "{not json" }), /metadata/i],
  ])("%s is 400 with a clear message", async (_name, value, message) => {
    const res = await t.app.inject({
      method: "POST",
      url: TUS,
      headers: {
        "x-api-key": t.keys.private,
        "tus-resumable": "1.0.0",
        "upload-length": "10",
        "upload-metadata": value,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(JSON.stringify(res.json())).toMatch(message);
  });

  it("Upload-Length that is not a length is 400", async () => {
    for (const length of ["-1", "abc", "1e3", "99999999999999999999"]) {
      const res = await create(0, { filename: "x.bin" }, t.keys.private, { "upload-length": length });
      expect(res.statusCode, length).toBe(400);
      expect(res.json().message, length).toMatch(/Upload-Length/);
    }
  });
});

describe("tus and upload policies", () => {
  async function mint(body: Record<string, unknown>): Promise<string> {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/tokens",
      headers: { "x-api-key": t.keys.private },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    return res.json().token ?? res.json().data.token;
  }

  it("a size over the policy's max is 413 at creation, before any byte", async () => {
    const token = await mint({ max_file_size: 100 });
    const res = await create(101, { filename: "x.bin" }, token);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ errorCode: "FILE_TOO_LARGE" });
    expect(
      await t.app.db.tusUpload.count({ where: { uploadTokenId: { not: null }, uploadLength: 101 } }),
    ).toBe(0);
  });

  it("a folder outside the policy's is 403 at creation", async () => {
    const token = await mint({ folder: "only-here" });
    const res = await create(10, { filename: "x.bin", folder: "elsewhere" }, token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errorCode: "FOLDER_NOT_ALLOWED" });
  });

  it("a type outside the policy's is 415 at the end: bytes and upload go", async () => {
    const token = await mint({ allowed_types: ["image/*"] });
    const bytes = testBytes(5000);
    const id = idOf((await create(bytes.length, { filename: "x.bin" }, token)).headers.location);
    const res = await patch(id, 0, bytes, token);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ errorCode: "TYPE_NOT_ALLOWED" });
    expect(await t.app.db.tusUpload.findUnique({ where: { id } })).toBeNull();
    expect(await t.app.db.file.findUnique({ where: { id } })).toBeNull();
  });

  it("a one-shot token creates one file: the upload goes on after the count is spent, a second is refused", async () => {
    const token = await mint({ max_files: 1 });
    const png = await pattern(8, 8);
    const a = idOf((await create(png.length, { filename: "a.png" }, token)).headers.location);
    const b = idOf((await create(png.length, { filename: "b.png" }, token)).headers.location);
    expect((await patch(a, 0, png, token)).statusCode).toBe(204);
    expect((await head(a, token)).statusCode).toBe(200);
    const second = await patch(b, 0, png, token);
    expect(second.statusCode).toBe(403);
    expect(second.json()).toMatchObject({ errorCode: "TOKEN_EXHAUSTED" });
  });
});

describe("tus resume on another instance", () => {
  it("a new app on the same database and storage takes the upload on and hashes it right", async () => {
    const bytes = testBytes(2 * 1024 * 1024 + 333, 11);
    const id = idOf((await create(bytes.length, { filename: "resumed.bin" })).headers.location);
    const half = 1024 * 1024 + 100;
    expect((await patch(id, 0, bytes.subarray(0, half))).statusCode).toBe(204);

    const second = await buildApp({
      config: { ...t.config, seedDev: false },
      database: t.app.database,
      closeDatabase: false,
      logger: false,
    });
    try {
      await second.ready();
      const resumed = await head(id, t.keys.private, second);
      expect(resumed.headers["upload-offset"]).toBe(String(half));
      const last = await patch(id, half, bytes.subarray(half), t.keys.private, second);
      expect(last.statusCode).toBe(204);
      const file = await storedFile(String(last.headers["trove-file-no"]));
      expect(file.hash).toBe((await hashStream([bytes])).hash);
      const stored = Buffer.concat(await (await t.app.storage.get(file.storageKey)).toArray());
      expect(stored.equals(bytes)).toBe(true);
    } finally {
      await second.close();
    }
  });
});
