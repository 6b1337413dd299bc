import {
  createFolderResponseSchema,
  folderRecordSchema,
  listFilesResponseSchema,
  listFoldersResponseSchema,
  messageResponseSchema,
} from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureFolderPath, MAX_FOLDER_DEPTH, MAX_PATH_BYTES } from "../src/folders/index.js";
import type { Folder } from "../src/generated/prisma/client.js";
import { createTestApp, seedFile, seedFolder, type TestApp } from "./support/index.js";

const UNAUTHORIZED = { success: false, error: "Unauthorized", message: "Invalid or missing API key" };
const FORBIDDEN = { error: "Forbidden", message: "This endpoint requires a private API key" };
const FOLDER_NOT_FOUND = { error: "Folder not found" };
const NOT_EMPTY = { success: false, error: "Folder is not empty" };
const BAD_KEYS = [
  {},
  { "x-api-key": "trove_sk_00000000000000000000000000000000" },
  { authorization: "Bearer nope" },
];
const FOLDER_NO = /^[a-z][a-z0-9]{9}$/;

function client(t: TestApp) {
  const headers = (key?: string) => ({ "x-api-key": key ?? t.keys.private });
  return {
    create: (payload: unknown, key?: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/folders",
        headers: headers(key),
        payload: payload as string,
      }),
    /** Creates a folder over HTTP and returns its folder_no. */
    mkdir: async (name: string, parent?: string) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/folders",
        headers: headers(),
        payload: parent ? { name, parent_folder_no: parent } : { name },
      });
      expect(res.statusCode, res.body).toBe(200);
      return createFolderResponseSchema.parse(res.json()).folder_no;
    },
    listRaw: (query = "", key?: string) =>
      t.app.inject({
        method: "GET",
        url: `/api/v1/folders${query ? `?${query}` : ""}`,
        headers: headers(key),
      }),
    list: async (query = "", key?: string) => {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/v1/folders${query ? `?${query}` : ""}`,
        headers: headers(key),
      });
      expect(res.statusCode, res.body).toBe(200);
      return listFoldersResponseSchema.parse(res.json());
    },
    rename: (folderNo: string, payload: unknown, key?: string) =>
      t.app.inject({
        method: "POST",
        url: `/api/v1/folders/rename/${folderNo}`,
        headers: headers(key),
        payload: payload as string,
      }),
    remove: (folderNo: string, key?: string) =>
      t.app.inject({ method: "DELETE", url: `/api/v1/folders/${folderNo}`, headers: headers(key) }),
    listFiles: async (query: string) => {
      const res = await t.app.inject({ method: "GET", url: `/api/v1/files?${query}`, headers: headers() });
      expect(res.statusCode, res.body).toBe(200);
      return listFilesResponseSchema.parse(res.json());
    },
    deliver: (url: string) => t.app.inject({ method: "GET", url: new URL(url).pathname }),
  };
}

const byNo = (t: TestApp, folderNo: string) => t.app.db.folder.findUniqueOrThrow({ where: { folderNo } });

describe("POST /api/v1/folders (create)", () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    api = client(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("creates a root folder and returns { name, folder_no }", async () => {
    const res = await api.create({ name: "photos" });
    expect(res.statusCode).toBe(200);
    const body = createFolderResponseSchema.parse(res.json());
    expect(res.json()).toEqual({ name: "photos", folder_no: expect.stringMatching(FOLDER_NO) });
    const row = await byNo(t, body.folder_no);
    const key = await t.app.db.apiKey.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, type: "private" },
    });
    expect(row).toMatchObject({
      workspaceId: t.workspace.id,
      parentId: null,
      name: "photos",
      path: "photos",
      createdBy: key.id,
      isActive: true,
      isDelete: false,
    });
  });

  it("nests under parent_folder_no, trims the name, and keeps names case-sensitive", async () => {
    const parent = await api.mkdir("nest");
    const child = await api.mkdir("  2024  ", parent);
    const grandchild = await api.mkdir("June", child);
    expect(await byNo(t, child)).toMatchObject({
      name: "2024",
      path: "nest/2024",
      parentId: (await byNo(t, parent)).id,
    });
    expect(await byNo(t, grandchild)).toMatchObject({ name: "June", path: "nest/2024/June" });
    expect(await api.mkdir("june", child)).toMatch(FOLDER_NO);
    // The same name under another parent is fine.
    expect(await api.mkdir("2024")).toMatch(FOLDER_NO);
  });

  it("is 409 { success: false, error } for a name already used under the same parent", async () => {
    const parent = await api.mkdir("dupes");
    await api.mkdir("a", parent);
    for (const name of ["a", " a "]) {
      const res = await api.create({ name, parent_folder_no: parent });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ success: false, error: 'A folder named "a" already exists here' });
    }
    await api.mkdir("rootdupe");
    const res = await api.create({ name: "rootdupe" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, error: 'A folder named "rootdupe" already exists here' });
    expect(await t.app.db.folder.count({ where: { workspaceId: t.workspace.id, path: "rootdupe" } })).toBe(1);
  });

  it("is 404 { error: 'Folder not found' } for an unknown or foreign parent", async () => {
    const foreign = await seedFolder(t.app, t.workspace2, "theirs");
    for (const parent of ["nosuchfolder", foreign.folderNo]) {
      const res = await api.create({ name: "x", parent_folder_no: parent });
      expect(res.statusCode, parent).toBe(404);
      expect(res.json()).toEqual(FOLDER_NOT_FOUND);
    }
    expect(await t.app.db.folder.count({ where: { parentId: foreign.id } })).toBe(0);
  });

  it("rejects invalid bodies with 400 { success: false, error }", async () => {
    const json = { "content-type": "application/json" };
    const bodies: Array<[string, object]> = [
      [JSON.stringify({}), json],
      [JSON.stringify({ name: "" }), json],
      [JSON.stringify({ name: "   " }), json],
      [JSON.stringify({ name: "a/b" }), json],
      [JSON.stringify({ name: "a\\b" }), json],
      [JSON.stringify({ name: "." }), json],
      [JSON.stringify({ name: ".." }), json],
      [JSON.stringify({ name: "tab\there" }), json],
      [JSON.stringify({ name: 5 }), json],
      [JSON.stringify({ name: "x".repeat(256) }), json],
      [JSON.stringify({ name: "ok", parent_folder_no: 7 }), json],
      [JSON.stringify({ name: "ok", parent_folder_no: "not-alnum" }), json],
      [JSON.stringify([]), json],
      ["{not json", json],
      ["", {}],
    ];
    for (const [payload, headers] of bodies) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/folders",
        headers: { "x-api-key": t.keys.private, ...headers },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toEqual({ success: false, error: expect.any(String) });
    }
  });

  it("refuses folders nested deeper than the limit", async () => {
    let parent = await api.mkdir("deep");
    for (let depth = 2; depth <= MAX_FOLDER_DEPTH; depth++) parent = await api.mkdir(`d${depth}`, parent);
    const res = await api.create({ name: "one-too-many", parent_folder_no: parent });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: `folders nest at most ${MAX_FOLDER_DEPTH} levels deep`,
    });
  });

  it("needs a private key", async () => {
    for (const headers of BAD_KEYS) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/folders",
        headers,
        payload: { name: "x" },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
    const res = await api.create({ name: "x" }, t.keys.public);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
  });
});

describe("GET /api/v1/folders (list)", () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  const f: Record<string, Folder> = {};
  beforeAll(async () => {
    t = await createTestApp();
    api = client(t);
    // Root: Alpha, beta, gamma_50%, empty. beta/inner/deep.
    for (const [path, minute] of [
      ["beta", 1],
      ["Alpha", 2],
      ["gamma_50%", 3],
      ["empty", 4],
      ["beta/inner", 5],
      ["beta/inner/deep", 6],
      ["beta/sibling", 7],
    ] as const) {
      const folder = await seedFolder(t.app, t.workspace, path);
      f[path] = await t.app.db.folder.update({
        where: { id: folder.id },
        data: { createdAt: new Date(Date.UTC(2025, 0, 1, 0, minute)) },
      });
    }
    await seedFile(t.app, t.workspace, { name: "a1.bin", folderPath: "Alpha", content: Buffer.alloc(100) });
    await seedFile(t.app, t.workspace, { name: "b1.bin", folderPath: "beta", content: Buffer.alloc(10) });
    await seedFile(t.app, t.workspace, {
      name: "b2.bin",
      folderPath: "beta/inner",
      content: Buffer.alloc(20),
    });
    await seedFile(t.app, t.workspace, {
      name: "b3.bin",
      folderPath: "beta/inner/deep",
      content: Buffer.alloc(30),
    });
    await seedFile(t.app, t.workspace, {
      name: "b4.bin",
      folderPath: "beta/inner/deep",
      content: Buffer.alloc(40),
    });
    await seedFile(t.app, t.workspace, { name: "root.bin", content: Buffer.alloc(1000) });
    await seedFolder(t.app, t.workspace2, "foreign");
  });
  afterAll(async () => {
    await t.close();
  });

  const names = (body: { folders: Array<{ name: string }> }) => body.folders.map((row) => row.name);

  it("lists root folders with recursive totals (files anywhere below, their bytes)", async () => {
    const body = await api.list();
    expect(body.folders).toEqual([
      {
        folder_no: f.Alpha!.folderNo,
        name: "Alpha",
        created_at: f.Alpha!.createdAt.toISOString(),
        total_items: 1,
        total_size: 100,
      },
      {
        folder_no: f.beta!.folderNo,
        name: "beta",
        created_at: f.beta!.createdAt.toISOString(),
        total_items: 4,
        total_size: 100,
      },
      {
        folder_no: f.empty!.folderNo,
        name: "empty",
        created_at: f.empty!.createdAt.toISOString(),
        total_items: 0,
        total_size: 0,
      },
      {
        folder_no: f["gamma_50%"]!.folderNo,
        name: "gamma_50%",
        created_at: f["gamma_50%"]!.createdAt.toISOString(),
        total_items: 0,
        total_size: 0,
      },
    ]);
  });

  it("lists direct children of parent_folder_no; an empty value is the root", async () => {
    const body = await api.list(`parent_folder_no=${f.beta!.folderNo}`);
    expect(body.folders.map((r) => [r.name, r.total_items, r.total_size])).toEqual([
      ["inner", 3, 90],
      ["sibling", 0, 0],
    ]);
    expect(names(await api.list(`parent_folder_no=${f["beta/inner"]!.folderNo}`))).toEqual(["deep"]);
    expect(await api.list(`parent_folder_no=${f["beta/inner/deep"]!.folderNo}`)).toEqual({ folders: [] });
    expect(names(await api.list("parent_folder_no="))).toEqual(["Alpha", "beta", "empty", "gamma_50%"]);
  });

  it("is 404 { error: 'Folder not found' } for an unknown, malformed or foreign parent", async () => {
    const foreign = await t.app.db.folder.findFirstOrThrow({ where: { workspaceId: t.workspace2.id } });
    for (const parent of ["nosuchfolder", "not-alnum", foreign.folderNo]) {
      const res = await api.listRaw(`parent_folder_no=${parent}`);
      expect(res.statusCode, parent).toBe(404);
      expect(res.json()).toEqual(FOLDER_NOT_FOUND);
    }
  });

  it("filters by name: partial, case-insensitive, % and _ literal", async () => {
    expect(names(await api.list("name=A"))).toEqual(["Alpha", "beta", "gamma_50%"]);
    expect(names(await api.list("name=ALP"))).toEqual(["Alpha"]);
    expect(names(await api.list(`name=${encodeURIComponent("%")}`))).toEqual(["gamma_50%"]);
    expect(names(await api.list("name=_"))).toEqual(["gamma_50%"]);
    expect(names(await api.list("name=inner"))).toEqual([]);
    expect(names(await api.list(`parent_folder_no=${f.beta!.folderNo}&name=SIB`))).toEqual(["sibling"]);
    expect(names(await api.list("name="))).toHaveLength(4);
  });

  it("sorts by name (default, case-insensitive) and created_at, both directions", async () => {
    const byName = ["Alpha", "beta", "empty", "gamma_50%"];
    const byCreated = ["beta", "Alpha", "gamma_50%", "empty"];
    expect(names(await api.list())).toEqual(byName);
    expect(names(await api.list("sort=name_asc"))).toEqual(byName);
    expect(names(await api.list("sort=name_desc"))).toEqual([...byName].reverse());
    expect(names(await api.list("sort=created_at_asc"))).toEqual(byCreated);
    expect(names(await api.list("sort=created_at_desc"))).toEqual([...byCreated].reverse());
  });

  it("rejects bad query values with 400 { error: 'Validation failed', message }", async () => {
    for (const query of [
      "sort=bogus",
      "sort=size_asc",
      `name=${"x".repeat(256)}`,
      "sort=name_asc&sort=name_desc",
    ]) {
      const res = await api.listRaw(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ error: "Validation failed", message: expect.any(String) });
    }
  });

  it("sees only the caller's workspace, and needs a private key", async () => {
    expect(names(await api.list("", t.keys.private2))).toEqual(["foreign"]);
    for (const headers of BAD_KEYS) {
      const res = await t.app.inject({ method: "GET", url: "/api/v1/folders", headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
    const res = await api.listRaw("", t.keys.public);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
  });
});

describe("POST /api/v1/folders/rename/:folderNo", () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    api = client(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("renames a root folder and returns the full record (parent_folder null)", async () => {
    const folderNo = await api.mkdir("before");
    const created = await byNo(t, folderNo);
    const res = await api.rename(folderNo, { name: "after" });
    expect(res.statusCode, res.body).toBe(200);
    const record = folderRecordSchema.parse(res.json());
    expect(record).toEqual({
      id: created.id,
      folder_no: folderNo,
      name: "after",
      parent_folder: null,
      workspace_id: t.workspace.id,
      workspace_no: t.workspace.workspaceNo,
      is_delete: false,
      is_active: true,
      created_by: created.createdBy,
      created_at: created.createdAt.toISOString(),
      updated_at: expect.any(String),
      source: "api",
      path: "after",
      workspace: { workspace_no: t.workspace.workspaceNo },
    });
    expect(record.created_by).toEqual(expect.any(String));
  });

  it("moves every descendant folder and file with it; delivery URLs follow", async () => {
    const top = await seedFolder(t.app, t.workspace, "trip");
    await seedFolder(t.app, t.workspace, "trip/day1/morning");
    await seedFolder(t.app, t.workspace, "trip/day2");
    await seedFolder(t.app, t.workspace, "trip2/keep"); // a sibling whose path starts with the same text
    const a = await seedFile(t.app, t.workspace, {
      name: "a.jpg",
      folderPath: "trip",
      content: Buffer.from("A"),
    });
    const b = await seedFile(t.app, t.workspace, {
      name: "b.jpg",
      folderPath: "trip/day1/morning",
      content: Buffer.from("B"),
    });
    const c = await seedFile(t.app, t.workspace, {
      name: "c.jpg",
      folderPath: "trip2/keep",
      content: Buffer.from("C"),
    });
    const inside = await seedFolder(t.app, t.workspace, "trip/day1");

    const res = await api.rename(inside.folderNo, { name: "first day" });
    expect(res.statusCode).toBe(200);
    expect(folderRecordSchema.parse(res.json())).toMatchObject({
      name: "first day",
      path: "trip/first day",
      parent_folder: top.id,
    });

    const renameTop = await api.rename(top.folderNo, { name: "Holiday" });
    expect(folderRecordSchema.parse(renameTop.json()).path).toBe("Holiday");

    const folders = await t.app.db.folder.findMany({
      where: {
        workspaceId: t.workspace.id,
        OR: [{ path: { startsWith: "Holiday" } }, { path: { startsWith: "trip" } }],
      },
    });
    expect(folders.map((x) => x.path).sort()).toEqual([
      "Holiday",
      "Holiday/day2",
      "Holiday/first day",
      "Holiday/first day/morning",
      "trip2",
      "trip2/keep",
    ]);
    const paths = async (id: string) => (await t.app.db.file.findUniqueOrThrow({ where: { id } })).path;
    expect(await paths(a.id)).toBe("Holiday/a.jpg");
    expect(await paths(b.id)).toBe("Holiday/first day/morning/b.jpg");
    expect(await paths(c.id)).toBe("trip2/keep/c.jpg");

    // Delivery: new paths serve, old ones are 404.
    const moved = await api.listFiles("path=Holiday&sort=name_asc");
    expect(moved.files.map((x) => x.path)).toEqual(["Holiday/a.jpg", "Holiday/first day/morning/b.jpg"]);
    for (const row of moved.files) {
      const served = await api.deliver(row.url);
      expect(served.statusCode, row.url).toBe(200);
    }
    expect(moved.files[1]?.url).toBe(
      `${t.config.assetsUrl}/${t.workspace.workspaceNo}/Holiday/first%20day/morning/b.jpg`,
    );
    expect((await api.deliver(moved.files[1]!.url)).body).toBe("B");
    expect((await api.deliver(a.url)).statusCode).toBe(404);
    expect((await api.deliver(b.url)).statusCode).toBe(404);
    expect((await api.deliver(c.url)).statusCode).toBe(200);
    expect((await api.listFiles("path=trip")).files).toEqual([]);
  });

  it("is 409 { success: false, error } when a sibling has the name; nothing moves", async () => {
    await seedFolder(t.app, t.workspace, "clash/one/sub");
    await seedFolder(t.app, t.workspace, "clash/two");
    const one = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "clash/one" },
    });
    const file = await seedFile(t.app, t.workspace, { name: "x.txt", folderPath: "clash/one/sub" });
    const res = await api.rename(one.folderNo, { name: "two" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, error: 'A folder named "two" already exists here' });
    expect((await t.app.db.file.findUniqueOrThrow({ where: { id: file.id } })).path).toBe(
      "clash/one/sub/x.txt",
    );
    expect(
      await t.app.db.folder.count({ where: { workspaceId: t.workspace.id, path: "clash/one/sub" } }),
    ).toBe(1);
  });

  it("renaming to the current name is a no-op 200; trimming applies", async () => {
    const folderNo = await api.mkdir("steady");
    const res = await api.rename(folderNo, { name: " steady " });
    expect(res.statusCode).toBe(200);
    expect(folderRecordSchema.parse(res.json())).toMatchObject({ name: "steady", path: "steady" });
  });

  it("rejects invalid bodies with 400 { error: 'Validation failed', message }", async () => {
    const folderNo = await api.mkdir("valid");
    const json = { "content-type": "application/json" };
    for (const payload of [
      JSON.stringify({}),
      JSON.stringify({ name: "" }),
      JSON.stringify({ name: "a/b" }),
      JSON.stringify({ name: ".." }),
      JSON.stringify({ name: " " }),
      JSON.stringify({ name: 1 }),
      JSON.stringify({ name: "new\u0000line" }),
      JSON.stringify({ name: "bell\u0007" }),
      "{not json",
    ]) {
      const res = await t.app.inject({
        method: "POST",
        url: `/api/v1/folders/rename/${folderNo}`,
        headers: { "x-api-key": t.keys.private, ...json },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toEqual({ error: "Validation failed", message: expect.any(String) });
    }
    expect((await byNo(t, folderNo)).name).toBe("valid");
  });

  it("refuses a name that would make a path below it too long", async () => {
    const long = "x".repeat(250);
    let parent = await api.mkdir(long);
    for (let i = 1; i < 7; i++) parent = await api.mkdir(long, parent);
    const top = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: long },
    });
    const res = await api.rename(top.folderNo, { name: "é".repeat(250) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: "Validation failed",
      message: `name makes a path too long (at most ${MAX_PATH_BYTES} bytes)`,
    });
    // Shorter is always fine.
    expect((await api.rename(top.folderNo, { name: "short" })).statusCode).toBe(200);
  });

  it("is 404 { error: 'Folder not found' } for unknown, malformed and foreign folder numbers", async () => {
    const foreign = await seedFolder(t.app, t.workspace2, "theirs");
    for (const folderNo of ["nosuchfolder", "not-alnum", "%20", foreign.folderNo]) {
      const res = await api.rename(folderNo, { name: "mine" });
      expect(res.statusCode, folderNo).toBe(404);
      expect(res.json()).toEqual(FOLDER_NOT_FOUND);
    }
    expect((await byNo(t, foreign.folderNo)).name).toBe("theirs");
  });

  it("needs a private key", async () => {
    const folderNo = await api.mkdir("locked");
    for (const headers of BAD_KEYS) {
      const res = await t.app.inject({
        method: "POST",
        url: `/api/v1/folders/rename/${folderNo}`,
        headers,
        payload: { name: "x" },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
    const res = await api.rename(folderNo, { name: "x" }, t.keys.public);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
  });
});

describe("DELETE /api/v1/folders/:folderNo", () => {
  let t: TestApp;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await createTestApp();
    api = client(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("deletes an empty folder together with its empty subfolders", async () => {
    await seedFolder(t.app, t.workspace, "old/a/b");
    await seedFolder(t.app, t.workspace, "old/c");
    await seedFolder(t.app, t.workspace, "older");
    const old = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "old" },
    });
    const res = await api.remove(old.folderNo);
    expect(res.statusCode).toBe(200);
    expect(messageResponseSchema.parse(res.json())).toEqual({ message: "Folder deleted successfully" });
    const left = await t.app.db.folder.findMany({ where: { workspaceId: t.workspace.id } });
    expect(left.map((x) => x.path)).toEqual(["older"]);
    const again = await api.remove(old.folderNo);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(FOLDER_NOT_FOUND);
  });

  it("is 409 { success: false, error: 'Folder is not empty' } while a file is in it or anywhere below", async () => {
    const direct = await seedFile(t.app, t.workspace, { name: "d.txt", folderPath: "full" });
    const nested = await seedFile(t.app, t.workspace, { name: "n.txt", folderPath: "deepfull/x/y" });
    const full = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "full" },
    });
    const deep = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "deepfull" },
    });
    for (const folder of [full, deep]) {
      const res = await api.remove(folder.folderNo);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(NOT_EMPTY);
    }
    expect(
      await t.app.db.folder.count({
        where: { workspaceId: t.workspace.id, path: { startsWith: "deepfull" } },
      }),
    ).toBe(3);
    // Once the files are gone (through the API), the folders can go.
    for (const file of [direct, nested]) {
      expect(
        (
          await t.app.inject({
            method: "DELETE",
            url: `/api/v1/files/${file.fileNo}`,
            headers: { "x-api-key": t.keys.private },
          })
        ).statusCode,
      ).toBe(200);
    }
    expect((await api.remove(full.folderNo)).statusCode).toBe(200);
    expect((await api.remove(deep.folderNo)).statusCode).toBe(200);
  });

  it("is 404 { error: 'Folder not found' } for unknown, malformed and foreign folder numbers", async () => {
    const foreign = await seedFolder(t.app, t.workspace2, "theirs");
    for (const folderNo of ["nosuchfolder", "not-alnum", foreign.folderNo]) {
      const res = await api.remove(folderNo);
      expect(res.statusCode, folderNo).toBe(404);
      expect(res.json()).toEqual(FOLDER_NOT_FOUND);
    }
    expect(await t.app.db.folder.findUnique({ where: { id: foreign.id } })).not.toBeNull();
  });

  it("needs a private key", async () => {
    const folderNo = await api.mkdir("guarded");
    for (const headers of BAD_KEYS) {
      const res = await t.app.inject({ method: "DELETE", url: `/api/v1/folders/${folderNo}`, headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
    const res = await api.remove(folderNo, t.keys.public);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
    expect(await t.app.db.folder.count({ where: { folderNo } })).toBe(1);
  });
});

describe("ensureFolderPath (for the upload routes)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("creates every missing level and returns the deepest; existing levels are reused", async () => {
    const key = await t.app.db.apiKey.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, type: "private" },
    });
    const existing = await seedFolder(t.app, t.workspace, "media");
    const deepest = await ensureFolderPath(t.app.db, t.workspace.id, "/media//2024/ June /", key.id);
    expect(deepest).toMatchObject({
      name: "June",
      path: "media/2024/June",
      createdBy: key.id,
      workspaceId: t.workspace.id,
    });
    const middle = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "media/2024" },
    });
    expect(middle.parentId).toBe(existing.id);
    expect(deepest?.parentId).toBe(middle.id);
    expect(await ensureFolderPath(t.app.db, t.workspace.id, "media/2024/June", null)).toEqual(deepest);
    expect(await ensureFolderPath(t.app.db, t.workspace.id, "", null)).toBeNull();
    expect(await ensureFolderPath(t.app.db, t.workspace.id, "///", null)).toBeNull();
  });

  it("works inside the caller's transaction and rolls back with it", async () => {
    const folder = await t.app.db.$transaction(async (tx) =>
      ensureFolderPath(tx, t.workspace.id, "tx/inner", null),
    );
    expect(folder?.path).toBe("tx/inner");
    await expect(
      t.app.db.$transaction(async (tx) => {
        await ensureFolderPath(tx, t.workspace.id, "rolled/back", null);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(
      await t.app.db.folder.count({ where: { workspaceId: t.workspace.id, path: { startsWith: "rolled" } } }),
    ).toBe(0);
  });

  it("concurrent calls for the same path all get the same folder, created once", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? ensureFolderPath(t.app.db, t.workspace.id, "race/a/b", null)
          : t.app.db.$transaction(async (tx) => ensureFolderPath(tx, t.workspace.id, "race/a/b", null)),
      ),
    );
    expect(new Set(results.map((folder) => folder?.id)).size).toBe(1);
    expect(
      await t.app.db.folder.count({ where: { workspaceId: t.workspace.id, path: { startsWith: "race" } } }),
    ).toBe(3);
  });

  it("keeps workspaces apart", async () => {
    const mine = await ensureFolderPath(t.app.db, t.workspace.id, "shared/name", null);
    const theirs = await ensureFolderPath(t.app.db, t.workspace2.id, "shared/name", null);
    expect(mine?.id).not.toBe(theirs?.id);
    expect(theirs?.workspaceId).toBe(t.workspace2.id);
  });

  it("refuses unsafe or oversized paths with a 400 HttpError", async () => {
    for (const path of [
      "a/../b",
      "./a",
      "a\\b",
      "a/\u0001/b",
      "x".repeat(256),
      Array.from({ length: 9 }, () => "y".repeat(250)).join("/"),
    ]) {
      await expect(ensureFolderPath(t.app.db, t.workspace.id, path, null), path).rejects.toMatchObject({
        status: 400,
      });
    }
    const tooDeep = Array.from({ length: MAX_FOLDER_DEPTH + 1 }, (_, i) => `l${i}`).join("/");
    await expect(ensureFolderPath(t.app.db, t.workspace.id, tooDeep, null)).rejects.toMatchObject({
      status: 400,
    });
    expect(
      await t.app.db.folder.count({ where: { workspaceId: t.workspace.id, path: { startsWith: "a" } } }),
    ).toBe(0);
  });
});
