// POST /api/v1/files/move (Trove's own): all or nothing, only rows change (storage keys do not
// name folders), folder counts follow, and the delivery host serves a moved file, and its
// transformed variants, at the new path and 404 at the old one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recountFiles } from "../src/files/file-counts.js";
import { createTestApp, seedFolder, type TestApp } from "./support/index.js";
import { solid } from "./support/test-images.js";
import { directUpload, pathOf, uploaded } from "./uploads-helpers.js";

describe("POST /api/v1/files/move", () => {
  let t: TestApp;
  let png: Buffer;
  beforeAll(async () => {
    t = await createTestApp();
    png = await solid(16, 12, { r: 10, g: 200, b: 30 }, "png");
  });
  afterAll(async () => {
    await t?.close();
  });

  const move = (payload: unknown, key: string = t.keys.private) =>
    t.app.inject({
      method: "POST",
      url: "/api/v1/files/move",
      headers: { "x-api-key": key },
      payload: payload as object,
    });

  async function upload(name: string, folder?: string) {
    return uploaded(
      await directUpload(t, { file_name: name, ...(folder ? { folder } : {}) }, { content: png }),
    );
  }

  async function rowOf(fileNo: string) {
    return t.app.db.file.findFirstOrThrow({ where: { fileNo: BigInt(fileNo) } });
  }

  async function folderItems(parentNo?: string): Promise<Record<string, number>> {
    const query = parentNo ? `?parent_folder_no=${parentNo}` : "";
    const res = await t.app.inject({
      method: "GET",
      url: `/api/v1/folders${query}`,
      headers: { "x-api-key": t.keys.private },
    });
    const rows = res.json().folders as Array<{ name: string; total_items: number }>;
    return Object.fromEntries(rows.map((row) => [row.name, row.total_items]));
  }

  it("moves files into a folder and back to the root; storage keys stay, counts follow", async () => {
    const a = await upload("move-a.png");
    const b = await upload("move-b.png", "inbox");
    const dest = await seedFolder(t.app, t.workspace, "archive/2026");
    const keysBefore = [(await rowOf(a.file_no)).storageKey, (await rowOf(b.file_no)).storageKey];

    const res = await move({ file_nos: [a.file_no, b.file_no], folder_no: dest.folderNo });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { moved: 2 } });
    const [ra, rb] = [await rowOf(a.file_no), await rowOf(b.file_no)];
    expect([ra.path, rb.path]).toEqual(["archive/2026/move-a.png", "archive/2026/move-b.png"]);
    expect([ra.folderId, rb.folderId]).toEqual([dest.id, dest.id]);
    expect([ra.storageKey, rb.storageKey]).toEqual(keysBefore);
    expect((await folderItems()).archive).toBe(2);
    expect((await folderItems()).inbox).toBe(0);
    expect(await recountFiles(t.app.db, { fix: false })).toEqual({ workspacesWrong: 0, foldersWrong: 0 });

    const back = await move({ file_nos: [a.file_no], folder_no: null });
    expect(back.json()).toEqual({ success: true, data: { moved: 1 } });
    expect((await rowOf(a.file_no)).path).toBe("move-a.png");
    expect((await rowOf(a.file_no)).folderId).toBeNull();
  });

  it("serves the moved file and its variants at the new path, 404 at the old one", async () => {
    const file = await upload("served.png", "before");
    const dest = await seedFolder(t.app, t.workspace, "after");
    const oldUrl = pathOf(file.url);
    const oldVariant = oldUrl.replace(`/${t.workspace.workspaceNo}/`, `/${t.workspace.workspaceNo}/w_8/`);
    // Both served (and the variant rendered and cached) before the move.
    expect((await t.app.inject({ url: oldUrl })).statusCode).toBe(200);
    expect((await t.app.inject({ url: oldVariant })).statusCode).toBe(200);

    expect((await move({ file_nos: [file.file_no], folder_no: dest.folderNo })).statusCode).toBe(200);
    const newUrl = oldUrl.replace("/before/", "/after/");
    const newVariant = oldVariant.replace("/before/", "/after/");
    const served = await t.app.inject({ url: newUrl });
    expect(served.statusCode).toBe(200);
    expect(Buffer.compare(served.rawPayload, png)).toBe(0);
    expect((await t.app.inject({ url: newVariant })).statusCode).toBe(200);
    expect((await t.app.inject({ url: oldUrl })).statusCode).toBe(404);
    expect((await t.app.inject({ url: oldVariant })).statusCode).toBe(404);
    const details = await t.app.inject({
      url: `/api/v1/files/${file.file_no}`,
      headers: { "x-api-key": t.keys.private },
    });
    expect(pathOf(details.json().data.url)).toBe(newUrl);
  });

  it("moves nothing when one file or the folder is unknown (404), or a name is taken there (409)", async () => {
    const a = await upload("clash.png");
    const b = await upload("clash.png", "other");
    const c = await upload("alone.png");
    const target = await seedFolder(t.app, t.workspace, "other");
    const before = await Promise.all([a, b, c].map((f) => rowOf(f.file_no)));

    const unknownFile = await move({ file_nos: [c.file_no, "999999999"], folder_no: target.folderNo });
    expect(unknownFile.statusCode).toBe(404);
    expect(unknownFile.json()).toEqual({ error: "File 999999999 not found" });
    const unknownFolder = await move({ file_nos: [c.file_no], folder_no: "nosuchfolder" });
    expect(unknownFolder.statusCode).toBe(404);
    expect(unknownFolder.json()).toEqual({ error: "Folder nosuchfolder not found" });
    // c would move, a clashes with b: neither moves.
    const clash = await move({ file_nos: [c.file_no, a.file_no], folder_no: target.folderNo });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toContain("clash.png");

    const after = await Promise.all([a, b, c].map((f) => rowOf(f.file_no)));
    expect(after.map((row) => [row.path, row.folderId])).toEqual(
      before.map((row) => [row.path, row.folderId]),
    );
  });

  it("refuses bad bodies with 400, another workspace's files with 404, a public key with 403", async () => {
    const mine = await upload("mine.png");
    const ids = Array.from({ length: 101 }, (_, i) => String(i + 1));
    for (const body of [
      {},
      { file_nos: [], folder_no: null },
      { file_nos: ids, folder_no: null },
      { file_nos: [mine.file_no, mine.file_no], folder_no: null },
      { file_nos: ["abc"], folder_no: null },
      { file_nos: [mine.file_no] },
      { file_nos: [mine.file_no], folder_no: "../x" },
      { file_nos: [mine.file_no], folder_no: null, extra: 1 },
    ]) {
      const res = await move(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    const raw = await t.app.inject({
      method: "POST",
      url: "/api/v1/files/move",
      headers: { "x-api-key": t.keys.private, "content-type": "application/json" },
      payload: "not json",
    });
    expect(raw.statusCode).toBe(400);

    const otherFolder = await seedFolder(t.app, t.workspace2, "theirs");
    expect((await move({ file_nos: [mine.file_no], folder_no: null }, t.keys.private2)).statusCode).toBe(404);
    expect((await move({ file_nos: [mine.file_no], folder_no: otherFolder.folderNo })).statusCode).toBe(404);
    expect((await move({ file_nos: [mine.file_no], folder_no: null }, t.keys.public)).statusCode).toBe(403);
    expect((await rowOf(mine.file_no)).path).toBe("mine.png");
  });
});
