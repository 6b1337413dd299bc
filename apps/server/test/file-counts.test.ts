/**
 * The counts behind `meta.total` and the folder list's totals (src/files/file-counts.ts) are kept
 * by a trigger on `files`. Whatever changes the rows (the API's write paths, concurrent writers, a
 * rolled-back transaction, a cascade), the counts must equal a count of the rows, and the repair
 * must find and fix counts changed behind the trigger's back. On PostgreSQL (TROVE_TEST_DATABASE_URL)
 * the concurrent cases run on several pool connections, so they write several slots at once.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileCount, recountFiles } from "../src/files/file-counts.js";
import { createTestApp, seedFile, seedFolder, type TestApp } from "./support/index.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const auth = () => ({ "x-api-key": t.keys.private });

async function listTotal(query = ""): Promise<number> {
  const res = await t.app.inject({ method: "GET", url: `/api/v1/files?limit=1${query}`, headers: auth() });
  expect(res.statusCode).toBe(200);
  return (res.json() as { meta: { total: number } }).meta.total;
}

async function folderTotals(parentNo?: string): Promise<Record<string, [number, number]>> {
  const query = parentNo ? `?parent_folder_no=${parentNo}` : "";
  const res = await t.app.inject({ method: "GET", url: `/api/v1/folders${query}`, headers: auth() });
  expect(res.statusCode).toBe(200);
  const rows = (res.json() as { folders: Array<{ name: string; total_items: number; total_size: number }> })
    .folders;
  return Object.fromEntries(rows.map((r) => [r.name, [r.total_items, r.total_size]]));
}

/** Files and bytes anywhere below a folder path, counted from the rows. */
async function rowsBelow(path: string): Promise<[number, number]> {
  const files = await t.app.db.file.findMany({
    where: { workspaceId: t.workspace.id, path: { startsWith: `${path}/` } },
    select: { size: true },
  });
  return [files.length, files.reduce((sum, f) => sum + Number(f.size), 0)];
}

async function rowCount(): Promise<number> {
  return t.app.db.file.count({ where: { workspaceId: t.workspace.id } });
}

async function expectExact() {
  expect(await recountFiles(t.app.db, { fix: false })).toEqual({ workspacesWrong: 0, foldersWrong: 0 });
  expect(await listTotal()).toBe(await rowCount());
}

function insertRowSql(workspaceId: string, name: string, size: number) {
  const id = randomUUID();
  return t.app.db.$executeRaw`
    INSERT INTO files (id, workspace_id, name, path, storage_key, size, mime_type, format, extension,
                       hash, upload_source, updated_at)
    VALUES (${id}::uuid, ${workspaceId}::uuid, ${name}, ${name}, ${`${workspaceId}/${id}/${name}`}, ${size},
            'application/octet-stream', 'bin', 'bin', 'h', 'seed', now())`;
}

describe("file counts", () => {
  it("every write path keeps the totals equal to the rows", async () => {
    const before = await rowCount();
    for (let i = 0; i < 3; i += 1) {
      uploaded(await directUpload(t, { file_name: `root-${i}.bin` }, { content: randomBytes(100 + i) }));
    }
    uploaded(
      await directUpload(t, { file_name: "b1.bin", folder: "counts/b" }, { content: randomBytes(1000) }),
    );
    const b2 = uploaded(
      await directUpload(t, { file_name: "b2.bin", folder: "counts/b" }, { content: randomBytes(2000) }),
    );
    uploaded(
      await directUpload(t, { file_name: "top.bin", folder: "counts" }, { content: randomBytes(500) }),
    );
    expect(await listTotal()).toBe(before + 6);
    await expectExact();

    const top = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "counts" },
    });
    const b = await t.app.db.folder.findFirstOrThrow({
      where: { workspaceId: t.workspace.id, path: "counts/b" },
    });
    expect((await folderTotals())["counts"]).toEqual([3, 3500]);
    expect((await folderTotals(top.folderNo))["b"]).toEqual([2, 3000]);
    expect(await listTotal(`&folder_no=${top.folderNo}`)).toBe(1);
    expect(await listTotal(`&folder_no=${b.folderNo}`)).toBe(2);

    const deleted = await t.app.inject({
      method: "DELETE",
      url: `/api/v1/files/${b2.file_no}`,
      headers: auth(),
    });
    expect(deleted.statusCode).toBe(200);
    expect((await folderTotals())["counts"]).toEqual([2, 1500]);
    expect(await listTotal(`&folder_no=${b.folderNo}`)).toBe(1);

    // A rename rewrites every path below the folder; the counts do not move.
    const renamed = await t.app.inject({
      method: "POST",
      url: `/api/v1/folders/rename/${top.folderNo}`,
      headers: auth(),
      payload: { name: "counted" },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await folderTotals())["counted"]).toEqual(await rowsBelow("counted"));
    await expectExact();

    // Filters that search are counted from the rows and agree.
    expect(await listTotal("&name=root-")).toBe(3);
    expect(await listTotal("&path=counted/b")).toBe(1);
  });

  it("a change rolled back takes its counts with it; inside the transaction they already agree", async () => {
    const before = await fileCount(t.app.db, t.workspace.id);
    await expect(
      t.app.db.$transaction(async (tx) => {
        await tx.$executeRaw`
          INSERT INTO files (id, workspace_id, name, path, storage_key, size, mime_type, format, extension,
                             hash, upload_source, updated_at)
          VALUES (${randomUUID()}::uuid, ${t.workspace.id}::uuid, 'rolled.bin', 'rolled.bin', ${randomUUID()},
                  7, 'application/octet-stream', 'bin', 'bin', 'h', 'seed', now())`;
        expect(await fileCount(tx, t.workspace.id)).toBe(before + 1);
        throw new Error("crash before commit");
      }),
    ).rejects.toThrow("crash before commit");
    expect(await fileCount(t.app.db, t.workspace.id)).toBe(before);
    await expectExact();
  });

  it("concurrent uploads and deletes leave exact counts", async () => {
    const folder = await seedFolder(t.app, t.workspace, "busy");
    const uploads = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        directUpload(t, { file_name: `c-${i}.bin`, folder: "busy" }, { content: randomBytes(64 + i) }),
      ),
    );
    const records = uploads.map(uploaded);
    await Promise.all([
      ...records
        .slice(0, 10)
        .map((r) => t.app.inject({ method: "DELETE", url: `/api/v1/files/${r.file_no}`, headers: auth() })),
      ...Array.from({ length: 8 }, (_, i) =>
        directUpload(t, { file_name: `d-${i}.bin`, folder: "busy" }, { content: randomBytes(32) }),
      ),
    ]);
    expect(await listTotal(`&folder_no=${folder.folderNo}`)).toBe(22);
    expect((await folderTotals())["busy"]).toEqual(await rowsBelow("busy"));
    await expectExact();
  });

  it("the repair finds counts changed behind the trigger's back and fixes them", async () => {
    await t.app.db.$executeRawUnsafe("ALTER TABLE files DISABLE TRIGGER files_counted");
    try {
      for (let i = 0; i < 5; i += 1) await insertRowSql(t.workspace.id, `bulk-${i}.bin`, 10);
      await seedFile(t.app, t.workspace, { name: "bulk.bin", folderPath: "bulk/deep" });
    } finally {
      await t.app.db.$executeRawUnsafe("ALTER TABLE files ENABLE TRIGGER files_counted");
    }
    expect(await listTotal()).toBe((await rowCount()) - 6);
    // The workspace, and bulk/deep with its ancestor bulk (created empty, so counted 0).
    expect(await recountFiles(t.app.db, { fix: false })).toEqual({ workspacesWrong: 1, foldersWrong: 2 });
    expect(await recountFiles(t.app.db, { fix: true })).toEqual({ workspacesWrong: 1, foldersWrong: 2 });
    await expectExact();
    expect((await folderTotals())["bulk"]).toEqual(await rowsBelow("bulk"));
  });

  it("deleting a workspace deletes its files and counts without a trace or an error", async () => {
    const workspace = await t.app.db.workspace.create({
      data: { workspaceNo: `cnt${randomBytes(4).toString("hex")}`, name: "doomed", webhookSecret: "x" },
    });
    await seedFile(t.app, workspace, { name: "a.bin", folderPath: "x/y" });
    await insertRowSql(workspace.id, "b.bin", 3);
    expect(await fileCount(t.app.db, workspace.id)).toBe(2);
    await t.app.db.$executeRaw`DELETE FROM workspaces WHERE id = ${workspace.id}::uuid`;
    const left = await t.app.db.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM workspace_file_counts WHERE workspace_id = ${workspace.id}::uuid`;
    expect(Number(left[0]?.n)).toBe(0);
    await expectExact();
  });
});
