import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import {
  fileDetailsResponseSchema,
  fileRecordSchema,
  listFilesResponseSchema,
  messageResponseSchema,
} from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDeleteObjectsHandler,
  DELETE_OBJECTS_JOB_KIND,
  deleteUnreferencedObjects,
  renamedFileName,
  THUMBNAIL_TRANSFORM,
} from "../src/files/index.js";
import type { ClaimedJob } from "../src/jobs/job-queue.js";
import type { StorageDriver } from "../src/storage/driver.js";
import { FsStorageDriver } from "../src/storage/fs-driver.js";
import { createTestApp, type SeededFile, seedFile, seedFolder, type TestApp } from "./support/index.js";

const UNAUTHORIZED = { success: false, error: "Unauthorized", message: "Invalid or missing API key" };
const FORBIDDEN = { error: "Forbidden", message: "This endpoint requires a private API key" };
const FILE_NOT_FOUND = { error: "File not found" };
const BAD_KEYS = [
  {},
  { "x-api-key": "trove_sk_00000000000000000000000000000000" },
  { authorization: "Bearer nope" },
];

type Method = "GET" | "PATCH" | "DELETE";

function client(t: TestApp) {
  const request = (
    method: Method,
    url: string,
    options: { key?: string; payload?: unknown; headers?: object } = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { "x-api-key": options.key ?? t.keys.private, ...options.headers },
      ...(options.payload === undefined ? {} : { payload: options.payload as string }),
    });
  return {
    get: (url: string, key?: string) => request("GET", url, key ? { key } : {}),
    list: async (query = "", key?: string) => {
      const res = await request("GET", `/api/v1/files${query ? `?${query}` : ""}`, key ? { key } : {});
      expect(res.statusCode, res.body).toBe(200);
      return listFilesResponseSchema.parse(res.json());
    },
    rename: (fileNo: string | bigint, payload: unknown, key?: string) =>
      request("PATCH", `/api/v1/files/${fileNo}/rename`, { payload, ...(key ? { key } : {}) }),
    remove: (fileNo: string | bigint, key?: string) =>
      request("DELETE", `/api/v1/files/${fileNo}`, key ? { key } : {}),
    /** GET on the delivery host for a file URL the API returned. */
    deliver: (url: string) => t.app.inject({ method: "GET", url: new URL(url).pathname }),
  };
}

const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute));

describe("GET /api/v1/files (list)", () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  const files: Record<string, SeededFile> = {};

  beforeAll(async () => {
    t = await createTestApp();
    api = client(t);
    // name, folder, bytes, minute, tags
    const seeds: Array<[string, string | undefined, number, number, string[]]> = [
      ["alpha.jpg", undefined, 30, 1, ["pets", "cats"]],
      ["Bravo.png", "photos", 10, 2, ["pets"]],
      ["charlie.jpg", "photos/2024", 50, 3, ["cats"]],
      ["delta_100%.pdf", "docs", 20, 4, []],
      ["echo.txt", "photos2", 40, 5, ["pets", "cats", "dogs"]],
    ];
    for (const [name, folderPath, bytes, minute, tags] of seeds) {
      files[name] = await seedFile(t.app, t.workspace, {
        name,
        ...(folderPath ? { folderPath } : {}),
        content: Buffer.alloc(bytes, 1),
        createdAt: at(minute),
        tags,
        width: name.endsWith(".jpg") ? 640 : null,
        height: name.endsWith(".jpg") ? 480 : null,
      });
    }
    // updated_at in the opposite order of created_at.
    for (const [index, name] of Object.keys(files).entries()) {
      await t.app.db.file.update({ where: { id: files[name]!.id }, data: { updatedAt: at(100 - index) } });
    }
    await seedFile(t.app, t.workspace2, { name: "other-workspace.jpg" });
  });
  afterAll(async () => {
    await t.close();
  });

  const names = (body: { files: Array<{ name: string }> }) => body.files.map((row) => row.name);

  it("returns rows in the schema's shape, newest first, with page meta", async () => {
    const body = await api.list();
    expect(names(body)).toEqual(["echo.txt", "delta_100%.pdf", "charlie.jpg", "Bravo.png", "alpha.jpg"]);
    expect(body.meta).toEqual({ page: 1, limit: 20, total: 5, hasNext: false, hasPrev: false });
    const charlie = files["charlie.jpg"]!;
    const row = body.files.find((r) => r.name === "charlie.jpg");
    expect(row).toEqual({
      file_no: String(charlie.fileNo),
      name: "charlie.jpg",
      thumbanil: null,
      url: charlie.url,
      file_size: 50,
      format: "jpeg",
      width: 640,
      height: 480,
      created_at: at(3).toISOString(),
      workspace_no: t.workspace.workspaceNo,
      path: "photos/2024/charlie.jpg",
      extension: "jpg",
      // A seeded row has none (placeholders: test/placeholders.test.ts).
      placeholder: null,
    });
    expect(row?.url).toBe(`${t.config.assetsUrl}/${t.workspace.workspaceNo}/photos/2024/charlie.jpg`);
    // Raw JSON: numbers are numbers, the misspelled key is the only thumbnail key.
    const raw = (await api.get("/api/v1/files")).json().files[0];
    expect(typeof raw.file_size).toBe("number");
    expect(typeof raw.file_no).toBe("string");
    expect(raw).toHaveProperty("thumbanil");
    expect(raw).not.toHaveProperty("thumbnail");
  });

  it("gives the thumbnail's delivery URL (a transform URL) when the file has one", async () => {
    const alpha = files["alpha.jpg"]!;
    await t.app.db.file.update({
      where: { id: alpha.id },
      data: { thumbnailKey: `${alpha.storageKey}.thumb.webp` },
    });
    try {
      const body = await api.list("name=alpha");
      expect(body.files[0]?.thumbanil).toBe(
        `${t.config.assetsUrl}/${t.workspace.workspaceNo}/${THUMBNAIL_TRANSFORM}/alpha.jpg`,
      );
      expect(THUMBNAIL_TRANSFORM).toBe("w_256,h_256,c_limit,f_webp");
    } finally {
      await t.app.db.file.update({ where: { id: alpha.id }, data: { thumbnailKey: null } });
    }
  });

  it("pages with hasNext/hasPrev right at every edge", async () => {
    const all = names(await api.list("sort=created_at_asc&limit=100"));
    const p1 = await api.list("sort=created_at_asc&limit=2&page=1");
    const p2 = await api.list("sort=created_at_asc&limit=2&page=2");
    const p3 = await api.list("sort=created_at_asc&limit=2&page=3");
    const p4 = await api.list("sort=created_at_asc&limit=2&page=4");
    expect(p1.meta).toEqual({ page: 1, limit: 2, total: 5, hasNext: true, hasPrev: false });
    expect(p2.meta).toEqual({ page: 2, limit: 2, total: 5, hasNext: true, hasPrev: true });
    expect(p3.meta).toEqual({ page: 3, limit: 2, total: 5, hasNext: false, hasPrev: true });
    expect(p4.meta).toEqual({ page: 4, limit: 2, total: 5, hasNext: false, hasPrev: true });
    expect([...names(p1), ...names(p2), ...names(p3)]).toEqual(all);
    expect(p3.files).toHaveLength(1);
    expect(p4.files).toEqual([]);
    // Exactly full pages: the last full page has no next.
    expect((await api.list("limit=5")).meta).toEqual({
      page: 1,
      limit: 5,
      total: 5,
      hasNext: false,
      hasPrev: false,
    });
    expect((await api.list("limit=1&page=5")).meta).toMatchObject({ hasNext: false, hasPrev: true });
    expect((await api.list("limit=1")).files).toHaveLength(1);
    expect((await api.list("limit=100")).meta.limit).toBe(100);
  });

  it("sorts by every field in both directions, combined and split forms", async () => {
    const byCreated = ["alpha.jpg", "Bravo.png", "charlie.jpg", "delta_100%.pdf", "echo.txt"];
    const bySize = ["Bravo.png", "delta_100%.pdf", "alpha.jpg", "echo.txt", "charlie.jpg"];
    // Case-insensitive: "Bravo" sorts between "alpha" and "charlie".
    const byName = ["alpha.jpg", "Bravo.png", "charlie.jpg", "delta_100%.pdf", "echo.txt"];
    const byUpdated = [...byCreated].reverse();
    const cases: Array<[string, string[]]> = [
      ["sort=name_asc", byName],
      ["sort=name_desc", [...byName].reverse()],
      ["sort=size_asc", bySize],
      ["sort=size_desc", [...bySize].reverse()],
      ["sort=created_at_asc", byCreated],
      ["sort=created_at_desc", [...byCreated].reverse()],
      ["sort_field=name&sort_order=asc", byName],
      ["sort_field=name&sort_order=desc", [...byName].reverse()],
      ["sort_field=file_size&sort_order=asc", bySize],
      ["sort_field=file_size&sort_order=desc", [...bySize].reverse()],
      ["sort_field=created_at&sort_order=asc", byCreated],
      ["sort_field=created_at&sort_order=desc", [...byCreated].reverse()],
      ["sort_field=updated_at&sort_order=asc", byUpdated],
      ["sort_field=updated_at&sort_order=desc", [...byUpdated].reverse()],
      // Defaults: name ascending, the others descending; order alone applies to created_at.
      ["sort_field=name", byName],
      ["sort_field=file_size", [...bySize].reverse()],
      ["sort_order=asc", byCreated],
      // `sort` wins over the split form.
      ["sort=size_asc&sort_field=name&sort_order=desc", bySize],
    ];
    for (const [query, expected] of cases) {
      expect(names(await api.list(query)), query).toEqual(expected);
    }
  });

  it("breaks ties by file_no, so pages of equal keys neither repeat nor skip rows", async () => {
    const u = await createTestApp();
    try {
      const seeded: SeededFile[] = [];
      for (let i = 0; i < 7; i++) {
        seeded.push(await seedFile(u.app, u.workspace, { name: `same-${i}.txt`, createdAt: at(7) }));
      }
      const uapi = client(u);
      for (const [sort, direction] of [
        ["created_at_desc", -1],
        ["created_at_asc", 1],
        ["size_desc", -1],
        ["size_asc", 1],
      ] as const) {
        const pages: string[] = [];
        for (let page = 1; page <= 4; page++) {
          pages.push(...(await uapi.list(`sort=${sort}&limit=2&page=${page}`)).files.map((f) => f.file_no));
        }
        const expected = seeded.map((f) => String(f.fileNo));
        expect(pages, sort).toEqual(direction === 1 ? expected : [...expected].reverse());
      }
    } finally {
      await u.close();
    }
  });

  it("filters by folder_no: files directly in the folder; unknown or foreign folder_no is an empty list", async () => {
    const photos = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "photos" },
    });
    expect(names(await api.list(`folder_no=${photos.folderNo}`))).toEqual(["Bravo.png"]);
    const y2024 = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "photos/2024" },
    });
    expect(names(await api.list(`folder_no=${y2024.folderNo}`))).toEqual(["charlie.jpg"]);
    for (const folderNo of ["nosuchfolder", "a-b_c", "%25"]) {
      const body = await api.list(`folder_no=${folderNo}`);
      expect(body.files).toEqual([]);
      expect(body.meta).toEqual({ page: 1, limit: 20, total: 0, hasNext: false, hasPrev: false });
    }
    expect((await api.list("folder_no=")).meta.total).toBe(5);
    const foreign = await seedFolder(t.app, t.workspace2, "photos");
    expect((await api.list(`folder_no=${foreign.folderNo}`)).files).toEqual([]);
  });

  it("filters by name: partial, case-insensitive, % and _ taken literally", async () => {
    expect(names(await api.list("name=HARL"))).toEqual(["charlie.jpg"]);
    expect(names(await api.list("name=.JPG&sort=name_asc"))).toEqual(["alpha.jpg", "charlie.jpg"]);
    expect(names(await api.list(`name=${encodeURIComponent("%")}`))).toEqual(["delta_100%.pdf"]);
    expect(names(await api.list(`name=${encodeURIComponent("0%.")}`))).toEqual(["delta_100%.pdf"]);
    expect(names(await api.list("name=_"))).toEqual(["delta_100%.pdf"]);
    expect(names(await api.list(`name=${encodeURIComponent("a%o")}`))).toEqual([]);
    expect(names(await api.list(`name=${encodeURIComponent("\\")}`))).toEqual([]);
    expect((await api.list("name=")).meta.total).toBe(5);
    expect(names(await api.list("name=zzz"))).toEqual([]);
  });

  it("filters by path: a folder path lists everything below it, a file path that file; segments match whole", async () => {
    const cases: Array<[string, string[]]> = [
      ["photos", ["Bravo.png", "charlie.jpg"]],
      ["photos/", ["Bravo.png", "charlie.jpg"]],
      ["/photos/", ["Bravo.png", "charlie.jpg"]],
      ["photos/2024", ["charlie.jpg"]],
      ["photos/2024/charlie.jpg", ["charlie.jpg"]],
      ["photos2", ["echo.txt"]],
      ["pho", []],
      ["photos/2024/charlie", []],
      ["PHOTOS", []],
      ["alpha.jpg", ["alpha.jpg"]],
      ["/", ["alpha.jpg", "Bravo.png", "charlie.jpg", "delta_100%.pdf", "echo.txt"]],
      ["", ["alpha.jpg", "Bravo.png", "charlie.jpg", "delta_100%.pdf", "echo.txt"]],
      ["%", []],
      ["photo_", []],
    ];
    for (const [path, expected] of cases) {
      expect(names(await api.list(`sort=name_asc&path=${encodeURIComponent(path)}`)), path).toEqual(expected);
    }
  });

  it("filters by tags: files carrying all of them", async () => {
    expect(names(await api.list("tags=pets&sort=name_asc"))).toEqual(["alpha.jpg", "Bravo.png", "echo.txt"]);
    expect(names(await api.list("tags=pets,cats&sort=name_asc"))).toEqual(["alpha.jpg", "echo.txt"]);
    expect(names(await api.list(`tags=${encodeURIComponent(" cats , dogs ,")}`))).toEqual(["echo.txt"]);
    expect(names(await api.list("tags=PETS"))).toEqual([]);
    expect(names(await api.list("tags=nope"))).toEqual([]);
    expect((await api.list("tags=,")).meta.total).toBe(5);
  });

  it("combines filters with AND and counts only what matches", async () => {
    const body = await api.list("path=photos&tags=cats&name=CHAR&limit=1");
    expect(names(body)).toEqual(["charlie.jpg"]);
    expect(body.meta).toEqual({ page: 1, limit: 1, total: 1, hasNext: false, hasPrev: false });
  });

  it("rejects bad query values with 400 { error: 'Validation failed', message }", async () => {
    for (const query of [
      "limit=0",
      "limit=101",
      "limit=-1",
      "limit=abc",
      "limit=1.5",
      "page=0",
      "page=-3",
      "page=x",
      "sort=bogus",
      "sort=size",
      "sort_field=size",
      "sort_order=up",
      "limit=1&limit=2",
      `name=${"x".repeat(256)}`,
    ]) {
      const res = await api.get(`/api/v1/files?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ error: "Validation failed", message: expect.any(String) });
    }
    const res = await api.get("/api/v1/files?limit=0");
    expect(res.json().message).toMatch(/limit/);
  });

  it("sees only the caller's workspace", async () => {
    const body = await api.list("", t.keys.private2);
    expect(names(body)).toEqual(["other-workspace.jpg"]);
    expect(body.files[0]?.workspace_no).toBe(t.workspace2.workspaceNo);
  });

  it("needs a private key: 401 without or with a bad key, 403 with a public key", async () => {
    for (const headers of BAD_KEYS) {
      const res = await t.app.inject({ method: "GET", url: "/api/v1/files", headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
    const res = await api.get("/api/v1/files", t.keys.public);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
  });
});

describe("GET /api/v1/files/:fileNo (details)", () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    api = client(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("returns { success: true, data } in the schema's shape", async () => {
    const key = await t.app.db.apiKey.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, type: "private" },
    });
    const file = await seedFile(t.app, t.workspace, {
      name: "cat.jpg",
      folderPath: "photos/2024",
      content: Buffer.alloc(1234, 7),
      width: 800,
      height: 600,
      createdBy: key.id,
      createdAt: at(42),
    });
    const res = await api.get(`/api/v1/files/${file.fileNo}`);
    expect(res.statusCode).toBe(200);
    const body = fileDetailsResponseSchema.parse(res.json());
    const folder = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "photos/2024" },
    });
    expect(body).toEqual({
      success: true,
      data: {
        id: file.id,
        file_no: String(file.fileNo),
        name: "cat.jpg",
        url: file.url,
        path: "photos/2024/cat.jpg",
        format: "jpeg",
        dimensions: { width: 800, height: 600 },
        size: 1234,
        workspace: { name: t.workspace.name, workspace_no: t.workspace.workspaceNo },
        folder: { id: folder.id, folder_no: folder.folderNo, name: "2024", path: "photos/2024" },
        uploaded_by: key.id,
        uploaded_at: at(42).toISOString(),
        asset_key: String(file.fileNo),
        asset_url: file.url,
        extension: "jpg",
        is_private: false,
        // A file that stays (temporary files: test/temporary-files.test.ts).
        expires_at: null,
        // Not computed for a seeded row (placeholders: test/placeholders.test.ts).
        placeholder: null,
        // Not a video (test/video-file-fields.test.ts).
        duration: null,
        video_codec: null,
        audio_codec: null,
      },
    });
  });

  it("reports a root file with folder null, no dimensions and uploaded_by 'system'", async () => {
    const file = await seedFile(t.app, t.workspace, { name: "notes.txt" });
    const body = fileDetailsResponseSchema.parse((await api.get(`/api/v1/files/${file.fileNo}`)).json());
    expect(body.data).toMatchObject({
      folder: null,
      path: "notes.txt",
      dimensions: { width: null, height: null },
      uploaded_by: "system",
      extension: "txt",
    });
  });

  it("is 404 { error: 'File not found' } for unknown, malformed and foreign file numbers", async () => {
    const foreign = await seedFile(t.app, t.workspace2, { name: "theirs.jpg" });
    for (const fileNo of [
      "999999",
      "abc",
      "0",
      "-1",
      "1.5",
      "1e3",
      "99999999999999999999",
      "%20",
      String(foreign.fileNo),
    ]) {
      const res = await api.get(`/api/v1/files/${fileNo}`);
      expect(res.statusCode, fileNo).toBe(404);
      expect(res.json(), fileNo).toEqual(FILE_NOT_FOUND);
    }
    // The owner still sees it.
    expect((await api.get(`/api/v1/files/${foreign.fileNo}`, t.keys.private2)).statusCode).toBe(200);
  });

  it("needs a private key", async () => {
    const file = await seedFile(t.app, t.workspace, { name: "k.txt" });
    for (const headers of BAD_KEYS) {
      const res = await t.app.inject({ method: "GET", url: `/api/v1/files/${file.fileNo}`, headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
    const res = await api.get(`/api/v1/files/${file.fileNo}`, t.keys.public);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
  });

  it("a failure reading the file is 500 { error: 'Failed to get file details', message } without internals", async () => {
    const u = await createTestApp();
    try {
      const file = await seedFile(u.app, u.workspace, { name: "x.txt" });
      await u.app.db.$executeRawUnsafe(`ALTER TABLE "files" RENAME TO "files_gone"`);
      const res = await u.app.inject({
        method: "GET",
        url: `/api/v1/files/${file.fileNo}`,
        headers: { "x-api-key": u.keys.private },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        error: "Failed to get file details",
        message: "An unexpected error occurred",
      });
    } finally {
      await u.close();
    }
  });
});

describe("PATCH /api/v1/files/:fileNo/rename", () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    api = client(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("keeps or appends the stored extension (unit rules)", () => {
    const cases: Array<[string, string, string]> = [
      ["dog", "jpg", "dog.jpg"],
      ["dog.jpg", "jpg", "dog.jpg"],
      ["dog.JPG", "jpg", "dog.jpg"],
      ["dog.jpeg", "jpg", "dog.jpg"],
      ["dog.jpg", "jpeg", "dog.jpeg"],
      ["dog.png", "jpg", "dog.png.jpg"],
      ["dog.jpg.jpg", "jpg", "dog.jpg.jpg"],
      ["  dog  ", "jpg", "dog.jpg"],
      ["dog.", "jpg", "dog.jpg"],
      ["dog. .jpg", "jpg", "dog.jpg"],
      [".hidden", "jpg", ".hidden.jpg"],
      ["my photo (1)", "png", "my photo (1).png"],
      ["Résumé", "pdf", "Résumé.pdf"],
      ["archive.tar", "gz", "archive.tar.gz"],
      ["notes.txt", "", "notes.txt"],
      ["notes", "", "notes"],
      ["page.HTML", "htm", "page.htm"],
    ];
    for (const [name, extension, expected] of cases)
      expect(renamedFileName(name, extension), name).toBe(expected);
    for (const name of ["...", ".jpg", " ", "a/b", "a\\b", "a\u0007b", ".."]) {
      expect(() => renamedFileName(name, "jpg"), name).toThrow();
    }
  });

  it("renames and returns the full record; the path follows, the stored object stays", async () => {
    const key = await t.app.db.apiKey.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, type: "private" },
    });
    const file = await seedFile(t.app, t.workspace, {
      name: "cat.jpg",
      folderPath: "pets",
      width: 10,
      height: 20,
      createdBy: key.id,
      createdAt: at(1),
    });
    await t.app.db.file.update({
      where: { id: file.id },
      data: { updatedAt: at(2), orientation: "landscape" },
    });
    const res = await api.rename(file.fileNo, { name: "dog" });
    expect(res.statusCode, res.body).toBe(200);
    const record = fileRecordSchema.parse(res.json());
    const folder = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "pets" },
    });
    expect(record).toEqual({
      id: file.id,
      file_no: String(file.fileNo),
      name: "dog.jpg",
      folder_id: folder.id,
      path: "pets/dog.jpg",
      url: `${t.config.assetsUrl}/${t.workspace.workspaceNo}/pets/dog.jpg`,
      original_url: null,
      workspace_id: t.workspace.id,
      workspace_no: t.workspace.workspaceNo,
      height: 20,
      width: 10,
      format: "jpeg",
      file_size: file.content.length,
      is_delete: false,
      is_active: true,
      created_by: key.id,
      meta_data: {
        size: file.content.length,
        width: 10,
        format: "image/jpeg",
        height: 20,
        orientation: "landscape",
      },
      created_at: at(1).toISOString(),
      updated_at: expect.any(String),
      transform_string: null,
      source: "seed",
      is_default: false,
      orientation: "landscape",
      extension: "jpg",
      placeholder: null,
      duration: null,
      video_codec: null,
      audio_codec: null,
    });
    expect(record.updated_at).not.toBe(at(2).toISOString());
    const row = await t.app.db.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(row.storageKey).toBe(file.storageKey);
    expect(await t.app.storage.exists(file.storageKey)).toBe(true);
    // Delivery: the new URL serves the bytes, the old one is gone.
    const fresh = await api.deliver(record.url);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.rawPayload.equals(file.content)).toBe(true);
    expect((await api.deliver(file.url)).statusCode).toBe(404);
  });

  it("applies the extension rules over HTTP", async () => {
    const file = await seedFile(t.app, t.workspace, { name: "photo.jpg", folderPath: "ext" });
    const cases: Array<[string, string]> = [
      ["dog.JPG", "dog.jpg"],
      ["dog.jpeg", "dog.jpg"],
      ["dog.png", "dog.png.jpg"],
      ["  spaced  ", "spaced.jpg"],
      ["100% _real_", "100% _real_.jpg"],
    ];
    for (const [name, expected] of cases) {
      const res = await api.rename(file.fileNo, { name });
      expect(res.statusCode, name).toBe(200);
      const record = fileRecordSchema.parse(res.json());
      expect(record.name, name).toBe(expected);
      expect(record.path).toBe(`ext/${expected}`);
      expect((await api.deliver(record.url)).statusCode, record.url).toBe(200);
    }
    const plain = await seedFile(t.app, t.workspace, { name: "README" });
    const res = await api.rename(plain.fileNo, { name: "LICENSE.txt" });
    expect(fileRecordSchema.parse(res.json())).toMatchObject({
      name: "LICENSE.txt",
      path: "LICENSE.txt",
      extension: "",
    });
  });

  it("renaming to the current name is a no-op 200", async () => {
    const file = await seedFile(t.app, t.workspace, { name: "same.png" });
    const res = await api.rename(file.fileNo, { name: "same" });
    expect(res.statusCode).toBe(200);
    expect(fileRecordSchema.parse(res.json())).toMatchObject({ name: "same.png", path: "same.png" });
  });

  it("is 409 { error, message } when another file of the same folder has the name", async () => {
    const a = await seedFile(t.app, t.workspace, { name: "a.jpg", folderPath: "clash" });
    await seedFile(t.app, t.workspace, { name: "b.jpg", folderPath: "clash" });
    const res = await api.rename(a.fileNo, { name: "b" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: "Conflict",
      message: 'A file named "b.jpg" already exists in this folder',
    });
    expect((await t.app.db.file.findUniqueOrThrow({ where: { id: a.id } })).name).toBe("a.jpg");
    // The same name in another folder, or a different case, is fine.
    await seedFile(t.app, t.workspace, { name: "c.jpg", folderPath: "elsewhere" });
    expect((await api.rename(a.fileNo, { name: "c" })).statusCode).toBe(200);
    expect((await api.rename(a.fileNo, { name: "B" })).statusCode).toBe(200);
  });

  it("rejects invalid bodies with 400 { error: 'Validation failed', message }", async () => {
    const file = await seedFile(t.app, t.workspace, { name: "valid.jpg" });
    const url = `/api/v1/files/${file.fileNo}/rename`;
    const json = { "content-type": "application/json" };
    const bodies: Array<[unknown, object]> = [
      [JSON.stringify({}), json],
      [JSON.stringify({ name: "" }), json],
      [JSON.stringify({ name: "a/b" }), json],
      [JSON.stringify({ name: "a\\b" }), json],
      [JSON.stringify({ name: 123 }), json],
      [JSON.stringify({ name: null }), json],
      [JSON.stringify({ name: ["x"] }), json],
      [JSON.stringify({ name: "   " }), json],
      [JSON.stringify({ name: ".." }), json],
      [JSON.stringify({ name: "..." }), json],
      [JSON.stringify({ name: ".jpg" }), json],
      [JSON.stringify({ name: "bad\nname" }), json],
      [JSON.stringify({ name: "x".repeat(256) }), json],
      [JSON.stringify("dog"), json],
      ["{not json", json],
      ["", {}],
    ];
    for (const [payload, headers] of bodies) {
      const res = await t.app.inject({
        method: "PATCH",
        url,
        headers: { "x-api-key": t.keys.private, ...headers },
        payload: payload as string,
      });
      expect(res.statusCode, String(payload)).toBe(400);
      expect(res.json(), String(payload)).toEqual({
        error: "Validation failed",
        message: expect.any(String),
      });
    }
    const textPlain = await t.app.inject({
      method: "PATCH",
      url,
      headers: { "x-api-key": t.keys.private, "content-type": "text/plain" },
      payload: "dog",
    });
    // Fastify reads text/plain as a string: not an object, so the same 400.
    expect(textPlain.statusCode).toBe(400);
    expect(textPlain.json()).toEqual({ error: "Validation failed", message: expect.any(String) });
    expect((await t.app.db.file.findUniqueOrThrow({ where: { id: file.id } })).name).toBe("valid.jpg");
  });

  it("is 404 { error: 'File <no> not found', code: 'FILE_NOT_FOUND' } for unknown, malformed and foreign numbers", async () => {
    const foreign = await seedFile(t.app, t.workspace2, { name: "theirs.jpg" });
    for (const fileNo of ["999999", "abc", "0", String(foreign.fileNo)]) {
      const res = await api.rename(fileNo, { name: "dog" });
      expect(res.statusCode, fileNo).toBe(404);
      expect(res.json()).toEqual({ error: `File ${fileNo} not found`, code: "FILE_NOT_FOUND" });
    }
    expect((await t.app.db.file.findUniqueOrThrow({ where: { id: foreign.id } })).name).toBe("theirs.jpg");
  });

  it("needs a private key", async () => {
    const file = await seedFile(t.app, t.workspace, { name: "k.jpg" });
    for (const headers of BAD_KEYS) {
      const res = await t.app.inject({
        method: "PATCH",
        url: `/api/v1/files/${file.fileNo}/rename`,
        headers,
        payload: { name: "x" },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
    const res = await api.rename(file.fileNo, { name: "x" }, t.keys.public);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
  });
});

describe("DELETE /api/v1/files/:fileNo", () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    api = client(t);
  });
  afterAll(async () => {
    await t.close();
  });

  async function withThumbnail(file: SeededFile): Promise<string> {
    const thumbnailKey = `${t.workspace.id}/${file.id}/thumbnail.webp`;
    await t.app.storage.put(thumbnailKey, Readable.from([Buffer.from("thumb")]));
    await t.app.db.file.update({ where: { id: file.id }, data: { thumbnailKey } });
    return thumbnailKey;
  }

  it("removes the row, the stored object and the thumbnail; no job is left behind", async () => {
    const file = await seedFile(t.app, t.workspace, { name: "gone.jpg", folderPath: "trash" });
    const thumbnailKey = await withThumbnail(file);
    expect((await api.deliver(file.url)).statusCode).toBe(200);
    expect(existsSync(join(t.storageDir, ...file.storageKey.split("/")))).toBe(true);

    const res = await api.remove(file.fileNo);
    expect(res.statusCode).toBe(200);
    expect(messageResponseSchema.parse(res.json())).toEqual({ message: "File deleted successfully" });

    expect(await t.app.db.file.findUnique({ where: { id: file.id } })).toBeNull();
    expect(await t.app.storage.exists(file.storageKey)).toBe(false);
    expect(await t.app.storage.exists(thumbnailKey)).toBe(false);
    // On disk, too (the fs driver keeps objects at their key's path).
    expect(existsSync(join(t.storageDir, ...file.storageKey.split("/")))).toBe(false);
    expect(existsSync(join(t.storageDir, ...thumbnailKey.split("/")))).toBe(false);
    const leftovers: string[] = [];
    for await (const object of t.app.storage.list(`${t.workspace.id}/${file.id}/`))
      leftovers.push(object.key);
    expect(leftovers).toEqual([]);
    expect(await t.app.db.job.count({ where: { kind: DELETE_OBJECTS_JOB_KIND } })).toBe(0);

    expect((await api.get(`/api/v1/files/${file.fileNo}`)).statusCode).toBe(404);
    expect((await api.deliver(file.url)).statusCode).toBe(404);
    const again = await api.remove(file.fileNo);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(FILE_NOT_FOUND);
    // The folder stays (now empty).
    expect(await t.app.db.folder.count({ where: { workspaceId: t.workspace.id, path: "trash" } })).toBe(1);
  });

  it("is 404 { error: 'File not found' } for unknown, malformed and foreign numbers, and deletes nothing", async () => {
    const foreign = await seedFile(t.app, t.workspace2, { name: "theirs.jpg" });
    for (const fileNo of ["999999", "abc", "0", "-5", String(foreign.fileNo)]) {
      const res = await api.remove(fileNo);
      expect(res.statusCode, fileNo).toBe(404);
      expect(res.json()).toEqual(FILE_NOT_FOUND);
    }
    expect(await t.app.db.file.findUnique({ where: { id: foreign.id } })).not.toBeNull();
    expect(await t.app.storage.exists(foreign.storageKey)).toBe(true);
  });

  it("needs a private key", async () => {
    const file = await seedFile(t.app, t.workspace, { name: "keep.jpg" });
    for (const headers of BAD_KEYS) {
      const res = await t.app.inject({ method: "DELETE", url: `/api/v1/files/${file.fileNo}`, headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
    const res = await api.remove(file.fileNo, t.keys.public);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
    expect(await t.app.storage.exists(file.storageKey)).toBe(true);
  });

  it("when storage fails, the row is still gone and a durable job removes the objects later", async () => {
    let failDeletes = true;
    const storageDir = await mkdtemp(join(tmpdir(), "trove-files-test-"));
    const u = await createTestApp({
      storage: new (class extends FsStorageDriver {
        override async delete(key: string): Promise<void> {
          if (failDeletes) throw new Error("storage is down");
          return super.delete(key);
        }
      })(storageDir),
    });
    try {
      const file = await seedFile(u.app, u.workspace, { name: "stuck.jpg" });
      const thumbnailKey = `${u.workspace.id}/${file.id}/thumbnail.webp`;
      await u.app.storage.put(thumbnailKey, Readable.from([Buffer.from("thumb")]));
      await u.app.db.file.update({ where: { id: file.id }, data: { thumbnailKey } });

      const res = await client(u).remove(file.fileNo);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: "File deleted successfully" });
      expect(await u.app.db.file.findUnique({ where: { id: file.id } })).toBeNull();
      expect(await u.app.storage.exists(file.storageKey)).toBe(true);

      const job = await u.app.db.job.findFirstOrThrow({ where: { kind: DELETE_OBJECTS_JOB_KIND } });
      expect(job.status).toBe("pending");
      expect(job.payload).toEqual({ keys: [file.storageKey, thumbnailKey] });
      expect(job.runAt.getTime()).toBeGreaterThan(Date.now());

      failDeletes = false;
      const handler = createDeleteObjectsHandler({ db: u.app.db, storage: u.app.storage });
      await handler({ id: job.id, kind: job.kind, payload: job.payload } as ClaimedJob<{ keys: string[] }>);
      expect(await u.app.storage.exists(file.storageKey)).toBe(false);
      expect(await u.app.storage.exists(thumbnailKey)).toBe(false);
    } finally {
      await u.close();
      await rm(storageDir, { recursive: true, force: true });
    }
  });

  it("the cleanup never deletes an object a file row still references", async () => {
    const live = await seedFile(t.app, t.workspace, { name: "live.jpg" });
    const orphan = `${t.workspace.id}/orphan/object.bin`;
    await t.app.storage.put(orphan, Readable.from([Buffer.from("x")]));
    const deleted: string[] = [];
    const storage: Pick<StorageDriver, "delete" | "list"> = {
      delete: async (key) => {
        deleted.push(key);
        await t.app.storage.delete(key);
      },
      list: (prefix) => t.app.storage.list(prefix),
    };
    await deleteUnreferencedObjects({ db: t.app.db, storage }, [live.storageKey, orphan, orphan, ""]);
    expect(deleted).toEqual([orphan]);
    expect(await t.app.storage.exists(live.storageKey)).toBe(true);
    expect(await t.app.storage.exists(orphan)).toBe(false);
  });
});
