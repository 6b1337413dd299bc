// Uploads into folders over real HTTP: one that exists is filed by the insert's own statement
// (src/uploads/insert-file-row.ts, `inFolder`), one that does not is created in a transaction
// (src/folders/ensure-folder-path.ts). Either way the response is the same, levels are created
// once however many uploads race for them, a taken name gets the next free one, and a path the
// folder rules refuse is refused before anything is stored. Runs on PostgreSQL too when
// TROVE_TEST_DATABASE_URL is set (createTestApp).
import { uploadErrorSchema } from "@trove/schema";
import { describe, expect, it } from "vitest";
import { ensureFolderPath } from "../src/folders/ensure-folder-path.js";
import { listeningTestAppPerSuite } from "./support/index.js";

const suite = listeningTestAppPerSuite();

interface Uploaded {
  id: string;
  name: string;
  path: string;
  folder_no: string | null;
  url: string;
}

/** POST /api/v1/uploads over HTTP with the private key: the status and the parsed body. */
async function upload(
  folder: string,
  fileName: string,
  text: string,
): Promise<{ status: number; body: unknown }> {
  const form = new FormData();
  form.set("file_name", fileName);
  form.set("folder", folder);
  form.set("file", new Blob([text], { type: "text/plain" }), fileName);
  const res = await fetch(`${suite.origin}/api/v1/uploads`, {
    method: "POST",
    headers: { "x-api-key": suite.t.keys.private },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

async function stored(folder: string, fileName: string, text: string): Promise<Uploaded> {
  const { status, body } = await upload(folder, fileName, text);
  expect(status, JSON.stringify(body)).toBe(200);
  return (body as { data: Uploaded }).data;
}

const foldersUnder = (prefix: string) =>
  suite.t.app.db.folder.findMany({
    where: { workspaceId: suite.t.workspace.id, path: { startsWith: prefix } },
    orderBy: { path: "asc" },
  });

describe("uploads into folders", () => {
  it("files an upload into an existing nested folder, creating nothing, with the response a new folder gets", async () => {
    const created = await stored("made/b/c", "first.txt", "creates the chain");
    const levels = await foldersUnder("made");
    expect(levels.map((folder) => folder.path)).toEqual(["made", "made/b", "made/b/c"]);

    const again = await stored("made/b/c", "second.txt", "into the existing chain");
    expect(await foldersUnder("made")).toEqual(levels);
    expect(again).toMatchObject({ path: "made/b/c/second.txt", folder_no: levels[2]?.folderNo });
    expect(Object.keys(again).sort()).toEqual(Object.keys(created).sort());
    const row = await suite.t.app.db.file.findUniqueOrThrow({ where: { id: again.id } });
    expect(row).toMatchObject({ folderId: levels[2]?.id, path: "made/b/c/second.txt", name: "second.txt" });
    const served = await fetch(new URL(new URL(again.url).pathname, suite.origin));
    expect(await served.text()).toBe("into the existing chain");
  });

  it("creates each level of a new folder once while 8 uploads race into it", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => stored("race/x/y", `file-${i}.txt`, `content ${i}`)),
    );
    const levels = await foldersUnder("race");
    expect(levels.map((folder) => folder.path)).toEqual(["race", "race/x", "race/x/y"]);
    expect(new Set(results.map((body) => body.folder_no))).toEqual(new Set([levels[2]?.folderNo]));
    expect(
      await suite.t.app.db.file.count({
        where: { workspaceId: suite.t.workspace.id, folderId: levels[2]?.id },
      }),
    ).toBe(8);
  });

  it("gives racing uploads of one name into an existing folder distinct free names", async () => {
    await ensureFolderPath(suite.t.app.db, suite.t.workspace.id, "same/name", null);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => stored("same/name", "photo.txt", `version ${i}`)),
    );
    const names = results.map((body) => body.name);
    expect(new Set(names).size).toBe(6);
    expect(names).toContain("photo.txt");
    for (const name of names) expect(name).toMatch(/^photo(-\d+)?\.txt$/);
  });

  it("refuses a folder too deep, or a file path too long in an existing folder, with a 400", async () => {
    const before = await suite.t.app.db.file.count({ where: { workspaceId: suite.t.workspace.id } });
    const deep = Array.from({ length: 33 }, (_, i) => `l${i}`).join("/");
    const longFolder = Array.from({ length: 7 }, () => "f".repeat(250)).join("/");
    await ensureFolderPath(suite.t.app.db, suite.t.workspace.id, longFolder, null);
    for (const [folder, fileName] of [
      [deep, "deep.txt"],
      [longFolder, `${"n".repeat(240)}.txt`],
    ] as const) {
      const { status, body } = await upload(folder, fileName, "refused");
      expect(status).toBe(400);
      expect(uploadErrorSchema.parse(body)).toMatchObject({ success: false, errorCode: "VALIDATION_FAILED" });
    }
    expect(await suite.t.app.db.file.count({ where: { workspaceId: suite.t.workspace.id } })).toBe(before);
    expect(await foldersUnder("l0")).toEqual([]);
  });
});
