/**
 * listFiles reads a page's keys from the sort's covering index, then the rows (a deferred join),
 * and past the middle reads the opposite order from the end. Whatever path a page takes, the
 * pages of every order must concatenate to exactly the whole list in that order.
 */
import type { ListFilesQuery } from "@trove/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, seedFile, type TestApp } from "../../test/support/index.js";
import { listFiles } from "./list-files.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Ties on every key (same minute, same size, names equal but for case or folder), so the
  // orders' later keys and finally file_no decide.
  const names = [
    "b.txt",
    "B.txt",
    "a.txt",
    "A.txt",
    "a.TXT",
    "C.txt",
    "c.txt",
    "d.txt",
    "b.txt",
    "e.txt",
    "a.txt",
  ];
  for (const [i, name] of names.entries()) {
    await seedFile(t.app, t.workspace, {
      name,
      ...(i >= 8 ? { folderPath: "again" } : {}),
      content: Buffer.alloc(10 + (i % 4)),
      createdAt: new Date(Date.UTC(2025, 0, 1, 0, i % 5)),
    });
  }
  // updated_at differs from created_at order: touch a few files.
  const files = await t.app.db.file.findMany({
    where: { workspaceId: t.workspace.id },
    orderBy: { fileNo: "asc" },
  });
  for (const file of [files[7], files[2], files[9]]) {
    await t.app.db.file.update({ where: { id: file?.id as string }, data: { customId: "touched" } });
  }
});
afterAll(async () => {
  await t?.close();
});

const ORDERS: Array<Partial<ListFilesQuery>> = [
  { sort: "name_asc" },
  { sort: "name_desc" },
  { sort: "size_asc" },
  { sort: "size_desc" },
  { sort: "created_at_asc" },
  { sort: "created_at_desc" },
  { sort_field: "updated_at", sort_order: "asc" },
  { sort_field: "updated_at", sort_order: "desc" },
];

async function fileNos(query: Partial<ListFilesQuery>, reverseMinOffset: number): Promise<string[]> {
  const all: string[] = [];
  for (let page = 1; page <= 5; page++) {
    const { rows, total } = await listFiles(
      t.app.db,
      t.workspace.id,
      { page, limit: 3, ...query } as ListFilesQuery,
      {
        reverseMinOffset,
      },
    );
    expect(total).toBe(11);
    all.push(...rows.map((row) => String(row.fileNo)));
  }
  return all;
}

describe("listFiles pages", () => {
  it.each(ORDERS)("concatenate to the whole list in order, forwards and reversed: %o", async (order) => {
    const whole = (
      await listFiles(t.app.db, t.workspace.id, { page: 1, limit: 100, ...order } as ListFilesQuery)
    ).rows.map((row) => String(row.fileNo));
    expect(whole).toHaveLength(11);
    expect(new Set(whole).size).toBe(11);
    // Forwards only, and with every page past the middle read from the end.
    expect(await fileNos(order, Number.POSITIVE_INFINITY)).toEqual(whole);
    expect(await fileNos(order, 0)).toEqual(whole);
  });
});
