// The upload's one-statement insert: the row it returns has the types Prisma's File has (it is
// raw SQL), a taken path inserts nothing, is_duplicate sees other files only, and `unless` keeps
// the row out while a webhook endpoint wants it.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureFolderPath } from "../src/folders/ensure-folder-path.js";
import { createWorkspace } from "../src/keys/workspaces.js";
import { insertFileRow, type NewFileRow } from "../src/uploads/insert-file-row.js";
import { uuidV7 } from "../src/uploads/uuid-v7.js";
import { subscribedSql } from "../src/webhooks/workspace-events.js";
import { createTestApp, type TestApp } from "./support/index.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function newRow(path: string, hash: string): NewFileRow {
  const id = uuidV7();
  return {
    id,
    workspaceId: t.workspace.id,
    folderId: null,
    name: path,
    path,
    storageKey: `${t.workspace.id}/${id}/${path}`,
    size: 5_000_000_000,
    mimeType: "image/png",
    format: "png",
    extension: "png",
    width: 20,
    height: 10,
    orientation: "landscape",
    hash,
    tags: ["a", "b c"],
    metadata: { nested: { n: 1 }, list: [true] },
    customId: "c-1",
    uploadSource: "direct",
    transformString: null,
    originalUrl: null,
    thumbnailKey: "variants/v1/x/y",
    createdBy: null,
    isPrivate: false,
  };
}

describe("insertFileRow", () => {
  it("returns the row as Prisma reads it", async () => {
    const row = newRow("typed.png", "hash-typed");
    const { file, isDuplicate } = await insertFileRow(t.app.db, row);
    expect(isDuplicate).toBe(false);
    const read = await t.app.db.file.findUniqueOrThrow({ where: { id: row.id } });
    expect(file).toEqual(read);
    expect(typeof file?.fileNo).toBe("bigint");
    expect(file?.size).toBe(5_000_000_000n);
    expect(file?.createdAt).toBeInstanceOf(Date);
    expect(file?.updatedAt).toBeInstanceOf(Date);
    expect(file).toMatchObject({ isPrivate: false, isActive: true, isDelete: false, tags: ["a", "b c"] });
  });

  it("inserts nothing at a taken path, and flags a duplicate hash of another file", async () => {
    await insertFileRow(t.app.db, newRow("taken.png", "hash-shared"));
    const again = newRow("taken.png", "hash-other");
    expect(await insertFileRow(t.app.db, again)).toEqual({
      file: null,
      isDuplicate: false,
      skipped: false,
      folder: null,
    });
    expect(await t.app.db.file.findUnique({ where: { id: again.id } })).toBeNull();
    const copy = await insertFileRow(t.app.db, newRow("copy.png", "hash-shared"));
    expect(copy.isDuplicate).toBe(true);
    expect(copy.file?.path).toBe("copy.png");
  });

  it("marks a new image pending, and copies the placeholder of a file with the same content instead", async () => {
    const first = { ...newRow("placeholder-first.png", "hash-placeholder"), placeholderPending: true };
    expect((await insertFileRow(t.app.db, first)).file).toMatchObject({
      placeholderAttempts: 0,
      placeholderThumbhash: null,
    });
    // A copy inserted before the sweep has computed the first one waits for the sweep too.
    const early = { ...newRow("placeholder-early.png", "hash-placeholder"), placeholderPending: true };
    expect((await insertFileRow(t.app.db, early)).file).toMatchObject({ placeholderAttempts: 0 });

    const computed = {
      placeholderThumbhash: "1QcSHQRnh493V4dIh4eXh1h4kJUI",
      placeholderColor: "#336699",
      placeholderDataUrl: "data:image/webp;base64,AAAA",
    };
    // The sweep writes every pending row of the content; a new copy then takes it from the first
    // file with that hash, the row the duplicate check reads (a row found without one would leave
    // the copy pending, for the sweep to copy from whichever row has one).
    await t.app.db.file.updateMany({
      where: { id: { in: [first.id, early.id] } },
      data: { ...computed, placeholderAttempts: null },
    });
    const later = { ...newRow("placeholder-later.png", "hash-placeholder"), placeholderPending: true };
    expect((await insertFileRow(t.app.db, later)).file).toMatchObject({
      ...computed,
      placeholderAttempts: null,
    });

    // Not an image (nothing pending): nothing is copied, whatever shares its hash.
    const bytes = newRow("placeholder-bytes.bin", "hash-placeholder");
    expect((await insertFileRow(t.app.db, bytes)).file).toMatchObject({
      placeholderThumbhash: null,
      placeholderAttempts: null,
    });
    // Another workspace's copy is not this workspace's: the new row waits for the sweep.
    const other = await createWorkspace(t.app.db, { name: "placeholder-other", secretKey: randomBytes(32) });
    const foreign = {
      ...newRow("placeholder-foreign.png", "hash-placeholder"),
      workspaceId: other.id,
      placeholderPending: true,
    };
    expect((await insertFileRow(t.app.db, foreign)).file).toMatchObject({
      placeholderThumbhash: null,
      placeholderAttempts: 0,
    });
  });

  it("inserts nothing while a webhook endpoint wants file.uploaded (`unless`), and says so", async () => {
    const unless = subscribedSql(t.workspace.id, "file.uploaded");
    const before = newRow("before-endpoint.png", "hash-unless-1");
    expect(await insertFileRow(t.app.database.sql, before, { unless })).toMatchObject({ skipped: false });
    expect(await t.app.db.file.findUnique({ where: { id: before.id } })).not.toBeNull();

    const endpoint = await t.app.db.webhookEndpoint.create({
      data: { workspaceId: t.workspace.id, url: "https://hooks.example/in", eventTypes: ["file.uploaded"] },
    });
    try {
      const during = newRow("during-endpoint.png", "hash-unless-2");
      expect(await insertFileRow(t.app.database.sql, during, { unless })).toEqual({
        file: null,
        isDuplicate: false,
        skipped: true,
        folder: null,
      });
      expect(await t.app.db.file.findUnique({ where: { id: during.id } })).toBeNull();
      // Without the condition the same row goes in.
      expect((await insertFileRow(t.app.database.sql, during)).file?.id).toBe(during.id);
    } finally {
      await t.app.db.webhookEndpoint.delete({ where: { id: endpoint.id } });
    }
  });

  it("with `inFolder`, files the row in the deepest level of an existing chain and returns that folder", async () => {
    const deepest = await ensureFolderPath(t.app.db, t.workspace.id, "chain/b/c", null);
    const row = { ...newRow("chain/b/c/in.png", "hash-in-folder"), name: "in.png" };
    const inserted = await insertFileRow(t.app.database.sql, row, { inFolder: ["chain", "b", "c"] });
    expect(inserted).toMatchObject({ skipped: false, folder: deepest });
    expect(inserted.file).toMatchObject({ folderId: deepest?.id, path: "chain/b/c/in.png" });
    expect(await t.app.db.file.findUniqueOrThrow({ where: { id: row.id } })).toEqual(inserted.file);
  });

  it("with `inFolder`, inserts nothing when a level is missing (even the deepest alone existing)", async () => {
    await ensureFolderPath(t.app.db, t.workspace.id, "gap/b/c", null);
    // A middle level moved away (as a rename half seen would leave it): the deepest path alone is not enough.
    await t.app.db.folder.updateMany({
      where: { workspaceId: t.workspace.id, path: "gap/b" },
      data: { path: "gap/moved", name: "moved" },
    });
    for (const segments of [["gap", "b", "c"], ["nowhere"]]) {
      const row = { ...newRow(`${segments.join("/")}/x.png`, "hash-gap"), name: "x.png" };
      expect(await insertFileRow(t.app.database.sql, row, { inFolder: segments })).toEqual({
        file: null,
        isDuplicate: false,
        skipped: true,
        folder: null,
      });
      expect(await t.app.db.file.findUnique({ where: { id: row.id } })).toBeNull();
    }
  });
});
