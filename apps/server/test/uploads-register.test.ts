// The registration service on its own (what the multipart routes call), the stored-name rules,
// concurrent uploads of one name, and storage failures (a 500, never a 400, nothing left behind).
import { pipeline, Readable, Transform } from "node:stream";
import { uploadResponseSchema } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashStream } from "../src/content-hash/index.js";
import { HttpError } from "../src/errors/http-error.js";
import { objectKey, type PutOptions, type StorageDriver } from "../src/storage/driver.js";
import { FsStorageDriver } from "../src/storage/fs-driver.js";
import { registerFile } from "../src/uploads/index.js";
import { collisionName, storedFileName } from "../src/uploads/stored-name.js";
import { uuidV7 } from "../src/uploads/uuid-v7.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { directUpload, listObjects, uploaded } from "./uploads-helpers.js";

describe("storedFileName", () => {
  it.each([
    ["holiday.png", "jpg", "holiday.jpg"],
    ["holiday", "jpg", "holiday.jpg"],
    ["Holiday.JPEG", "jpg", "Holiday.jpg"],
    ["holiday.jpg", "jpg", "holiday.jpg"],
    ["report v1.2", "pdf", "report v1.2.pdf"],
    ["archive.tar.gz", "gz", "archive.tar.gz"],
    ["  spaced name.png  ", "png", "spaced name.png"],
    ["dots...", "txt", "dots.txt"],
    ["ünïcödé 写真.webp", "webp", "ünïcödé 写真.webp"],
    ["data.xyzq", "xyzq", "data.xyzq"],
    [".env", "txt", ".env.txt"],
  ])("%s as %s -> %s", (requested, extension, expected) => {
    expect(storedFileName(requested, extension)).toBe(expected);
  });

  it("appends the random suffix before the extension and caps the length", () => {
    expect(storedFileName("cat.png", "png", { suffix: "k3x9q2ab" })).toBe("cat-k3x9q2ab.png");
    const long = storedFileName(`${"a".repeat(300)}.png`, "png", { suffix: "12345678" });
    expect(long).toHaveLength(255);
    expect(long.endsWith("-12345678.png")).toBe(true);
  });

  it("refuses names that are no names", () => {
    for (const bad of ["", "   ", "..", "a/b", "a\\b", "x\u0001y", "..."]) {
      expect(() => storedFileName(bad, "png")).toThrow(HttpError);
    }
  });

  it("numbers alternatives before the extension", () => {
    expect(collisionName("cat.jpg", 3)).toBe("cat-3.jpg");
    expect(collisionName("README", 1)).toBe("README-1");
  });
});

describe("registerFile", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function store(content: Buffer, name: string) {
    const fileId = uuidV7();
    const key = objectKey(t.workspace.id, fileId, name);
    await t.app.storage.put(key, Readable.from([content]));
    return { fileId, key, size: content.length, hash: (await hashStream([content])).hash };
  }

  it("registers bytes already in storage (no head given: it reads one)", async () => {
    const png = await solid(20, 10, { r: 1, g: 1, b: 1 }, "png");
    const stored = await store(png, "assembled.bin");
    const result = await registerFile(t.app.uploadDeps, {
      workspaceId: t.workspace.id,
      workspaceNo: t.workspace.workspaceNo,
      storageKey: stored.key,
      fileId: stored.fileId,
      size: stored.size,
      hash: stored.hash,
      fileName: "assembled",
      folder: "parts/done",
      tags: ["mp"],
      uploadSource: "multipart",
      createdBy: null,
    });
    expect(uploadResponseSchema.parse(result.response)).toMatchObject({
      id: stored.fileId,
      name: "assembled.png",
      path: "parts/done/assembled.png",
      width: 20,
      height: 10,
      upload_source: "multipart",
      hash: stored.hash,
    });
    expect(result.file.storageKey).toBe(stored.key);
    expect(result.folder?.path).toBe("parts/done");
    expect(result.webhook).toBeNull();
    expect(uuidV7()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("deletes what it wrote on failure, and the source unless told to keep it", async () => {
    const png = await solid(20, 10, { r: 1, g: 1, b: 1 }, "png");
    const before = await listObjects(t.storageDir);
    const kept = await store(png, "kept.png");
    const input = {
      workspaceId: t.workspace.id,
      workspaceNo: t.workspace.workspaceNo,
      storageKey: kept.key,
      fileId: kept.fileId,
      size: kept.size,
      hash: kept.hash,
      fileName: "kept.png",
      transform: "q_0",
      uploadSource: "multipart" as const,
      createdBy: null,
    };
    await expect(
      registerFile(t.app.uploadDeps, { ...input, deleteSourceOnError: false }),
    ).rejects.toMatchObject({
      status: 400,
      errorCode: "INVALID_TRANSFORM",
    });
    expect(await listObjects(t.storageDir)).toEqual([...before, kept.key].sort());
    // A failure after the image was described (folder path too deep) removes the source.
    await expect(
      registerFile(t.app.uploadDeps, {
        ...input,
        transform: undefined,
        folder: Array(40).fill("d").join("/"),
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(await listObjects(t.storageDir)).toEqual(before);
  });

  it.each([
    // Prisma's P1017: PostgreSQL closed the connection (a transaction, or a Prisma statement).
    ["Prisma", () => Object.assign(new Error("Server has closed the connection."), { code: "P1017" })],
    // What `pg` says on the direct path (app.database.sql) when the socket goes mid-statement.
    ["pg", () => new Error("Connection terminated unexpectedly")],
  ])(
    "keeps its objects when the database connection drops (%s): the row may have been committed",
    async (_, error) => {
      const png = await solid(20, 10, { r: 1, g: 1, b: 1 }, "png");
      const before = await listObjects(t.storageDir);
      const stored = await store(png, "lost-commit.png");
      const deps = t.app.uploadDeps;
      // The commit's answer is lost, whether the row goes in with a statement of its own (the direct
      // path, or Prisma's raw path) or inside a transaction.
      const lost = async () => {
        throw error();
      };
      const db = new Proxy(deps.db, {
        get: (target, property, receiver) =>
          property === "$transaction" || property === "$queryRaw"
            ? lost
            : Reflect.get(target, property, receiver),
      });
      const failure = registerFile(
        { ...deps, db, sql: { $queryRaw: lost } },
        {
          workspaceId: t.workspace.id,
          workspaceNo: t.workspace.workspaceNo,
          storageKey: stored.key,
          fileId: stored.fileId,
          size: stored.size,
          hash: stored.hash,
          fileName: "lost-commit.png",
          uploadSource: "direct",
          createdBy: null,
        },
      );
      await expect(failure).rejects.toMatchObject({ message: error().message });
      // The object stays for the orphan sweeper, which removes it only if no row names it.
      expect(await listObjects(t.storageDir)).toEqual([...before, stored.key].sort());
    },
  );

  it("gives concurrent uploads of one name distinct names, never overwriting", async () => {
    const results = await Promise.all(
      ["1", "2", "3", "4"].map((n) =>
        directUpload(t, { file_name: "race.txt", folder: "race" }, { content: Buffer.from(`content ${n}`) }),
      ),
    );
    const names = results.map((res) => uploaded(res).name).sort();
    expect(names).toEqual(["race-1.txt", "race-2.txt", "race-3.txt", "race.txt"]);
    const bodies = await Promise.all(
      names.map(
        async (name) => (await t.app.inject({ url: `/assets/${t.workspace.workspaceNo}/race/${name}` })).body,
      ),
    );
    expect(bodies.sort()).toEqual(["content 1", "content 2", "content 3", "content 4"]);
  });
});

describe("storage failures", () => {
  /** Fails every put after `failAfterBytes` bytes, like a full disk. */
  class FailingStorage extends FsStorageDriver {
    failAfterBytes = Number.POSITIVE_INFINITY;
    override async put(key: string, body: Readable, options?: PutOptions) {
      const limit = this.failAfterBytes;
      let seen = 0;
      const guarded = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          seen += chunk.length;
          if (seen > limit)
            callback(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" }));
          else callback(null, chunk);
        },
      });
      pipeline(body, guarded, () => {});
      return super.put(key, guarded, options);
    }
  }

  it("answers 500 (not 400) when storage fails mid-upload, and leaves nothing behind", async () => {
    const { mkdtemp, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const storage = new FailingStorage(await mkdtemp(join(tmpdir(), "trove-failing-")));
    const t = await createTestApp({ storage: storage as StorageDriver });
    try {
      storage.failAfterBytes = 100;
      const res = await directUpload(t, { file_name: "x.bin" }, { content: Buffer.alloc(100_000, 1) });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ success: false, errorCode: "INTERNAL_ERROR" });
      expect(res.body).not.toContain("ENOSPC");
      expect(await listObjects(storage.root)).toEqual([]);
      expect(await t.app.db.file.count()).toBe(0);
    } finally {
      await t.close();
      await rm(storage.root, { recursive: true, force: true });
    }
  });
});
