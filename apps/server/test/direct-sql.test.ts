/**
 * The direct path (`database.sql`, src/db/direct-sql.ts) must be interchangeable with Prisma's
 * `$queryRaw` for the statements that use it: the same parameters in, the same values out (int8
 * as bigint, timestamps as Date, json parsed, arrays as arrays), on PGlite and, with
 * TROVE_TEST_DATABASE_URL, on PostgreSQL through `pg`. A mismatch would show up as a wrong
 * `file_no`, size or date in a list page or an upload's response.
 */
import { randomUUID } from "node:crypto";
import type { ListFilesQuery } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoTimestampSql } from "../src/db/iso-timestamp.js";
import { listFiles } from "../src/files/list-files.js";
import { listFolders } from "../src/folders/folder-service.js";
import { Prisma } from "../src/generated/prisma/client.js";
import { hasSubscribers } from "../src/webhooks/workspace-events.js";
import { createTestApp, seedFile, seedFolder, type TestApp } from "./support/index.js";
import { directUpload, uploaded } from "./uploads-helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const listQuery = (extra: Partial<ListFilesQuery> = {}): ListFilesQuery => ({ page: 1, limit: 25, ...extra });

describe("direct SQL", () => {
  it("returns the values Prisma's $queryRaw returns, for every column type the hot paths read", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const statement = (big: bigint, tags: string[], meta: unknown, id: string) => Prisma.sql`
      SELECT ${big}::bigint AS big, 9007199254740993::int8 AS beyond_double, ${tags}::text[] AS tags,
             ${JSON.stringify(meta)}::jsonb AS meta, ${at}::timestamptz AS at, ${id}::uuid AS id,
             ${true} AS yes, NULL::text AS nothing, 7::int AS small, ARRAY[1, 2]::int8[] AS bigs,
             '{}'::text[] AS empty_tags, ${"it's \\ 'quoted'"} AS text`;
    const args: Parameters<typeof statement> = [
      123n,
      ["a b", "c,d", 'e"f', ""],
      { nested: { n: 1, s: "x" }, list: [1, "2"] },
      randomUUID(),
    ];
    const viaPrisma = await t.app.db.$queryRaw<unknown[]>(statement(...args));
    const direct = await t.app.database.sql.$queryRaw<unknown[]>(statement(...args));
    expect(direct).toEqual(viaPrisma);
    const [row] = direct as Array<Record<string, unknown>>;
    expect(row?.big).toBe(123n);
    expect(row?.beyond_double).toBe(9007199254740993n);
    expect(row?.at).toEqual(at);
    expect(row?.bigs).toEqual([1n, 2n]);
  });

  it("also takes a tagged template, with values as parameters (never spliced into the text)", async () => {
    const hostile = "x'; DROP TABLE files; --";
    const rows = await t.app.database.sql.$queryRaw<
      Array<{ echoed: string }>
    >`SELECT ${hostile}::text AS echoed`;
    expect(rows).toEqual([{ echoed: hostile }]);
    expect(await t.app.db.file.count()).toBeGreaterThanOrEqual(0);
  });

  it("rejects a failing statement with the database's error, without hanging", async () => {
    await expect(t.app.database.sql.$queryRaw`SELECT * FROM no_such_table`).rejects.toThrow(/no_such_table/);
    // The connection (PGlite) or pool (pg) is still usable afterwards.
    expect(await t.app.database.sql.$queryRaw`SELECT 1::int AS one`).toEqual([{ one: 1 }]);
  });

  it("lists the same files and folders as Prisma would, uploads included", async () => {
    const folderPath = `direct-${randomUUID().slice(0, 8)}`;
    const folder = await seedFolder(t.app, t.workspace, folderPath);
    await seedFile(t.app, t.workspace, { name: "seeded.jpg", folderPath });
    const res = await directUpload(
      t,
      { file_name: "uploaded.txt" },
      { content: Buffer.from("hello direct path") },
    );
    const file = uploaded(res);
    for (const query of [
      listQuery(),
      listQuery({ folder_no: folder.folderNo }),
      listQuery({ name: "upload" }),
    ]) {
      const viaPrisma = await listFiles(t.app.db, t.workspace.id, query);
      const direct = await listFiles(t.app.database.sql, t.workspace.id, query);
      expect(direct).toEqual(viaPrisma);
      expect(direct.total).toBeGreaterThan(0);
    }
    const page = await listFiles(t.app.database.sql, t.workspace.id, listQuery({ name: "uploaded" }));
    expect(page.rows.map((r) => String(r.fileNo))).toContain(file.file_no);
    expect(page.rows.find((r) => String(r.fileNo) === file.file_no)?.size).toBe(17n);
    expect(await listFolders(t.app.database.sql, t.workspace.id, {})).toEqual(
      await listFolders(t.app.db, t.workspace.id, {}),
    );
  });

  it("formats a timestamp as the Date it would have been gives it (ISO, milliseconds truncated)", async () => {
    const stored = [
      "2026-01-02 03:04:05.678901+00",
      "2026-01-02 03:04:05.999999+00",
      "2026-01-02 03:04:05.000001+00",
      "1999-12-31 23:59:59.9995+00",
      "2026-06-30 12:00:00+02",
      "2026-03-29 01:30:00.5+00",
    ];
    for (const text of stored) {
      const [row] = await t.app.database.sql.$queryRaw<Array<{ iso: string; at: Date }>>(
        Prisma.sql`SELECT ${isoTimestampSql(Prisma.sql`${text}::timestamptz`)} AS iso, ${text}::timestamptz AS at`,
      );
      expect(row?.iso).toBe(row?.at.toISOString());
    }
  });

  it("answers whether a workspace has subscribers to an event type", async () => {
    const workspaceId = t.workspace.id;
    expect(await hasSubscribers(t.app.database.sql, workspaceId, "file.uploaded")).toBe(false);
    const endpoint = await t.app.db.webhookEndpoint.create({
      data: { workspaceId, url: "http://127.0.0.1:9/hook", eventTypes: ["folder.deleted"] },
    });
    expect(await hasSubscribers(t.app.database.sql, workspaceId, "file.uploaded")).toBe(false);
    expect(await hasSubscribers(t.app.database.sql, workspaceId, "folder.deleted")).toBe(true);
    await t.app.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { eventTypes: ["*"] } });
    expect(await hasSubscribers(t.app.database.sql, workspaceId, "file.uploaded")).toBe(true);
    await t.app.db.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });
});
