/**
 * Prepared statements of the direct path on a real PostgreSQL (TROVE_TEST_DATABASE_URL; see
 * vitest.config.ts): each statement text is prepared once per connection and then only bound and
 * executed, a failing statement leaves the connection usable, the number prepared is bounded, and
 * `prepared: false` (for a pooler that cannot keep them) prepares nothing.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, seedFile } from "../../test/support/index.js";
import { listFiles } from "../files/list-files.js";
import { listFolders } from "../folders/folder-service.js";
import { Prisma } from "../generated/prisma/client.js";
import { MAX_PREPARED_STATEMENTS, pgDirectSql } from "./direct-sql.js";

const url = process.env.TROVE_TEST_DATABASE_URL;

let pool: pg.Pool | undefined;
afterEach(async () => {
  await pool?.end();
  pool = undefined;
});

/** One connection, so the statements prepared on it can be read back from the same session. */
function onePool(connectionString = url): pg.Pool {
  pool = new pg.Pool({ connectionString, max: 1 });
  return pool;
}

async function preparedOn(on: pg.Pool): Promise<Array<{ name: string; statement: string }>> {
  const { rows } = await on.query<{ name: string; statement: string }>(
    "SELECT name, statement FROM pg_prepared_statements ORDER BY prepare_time",
  );
  return rows;
}

describe("direct SQL on PostgreSQL: prepared statements", () => {
  it("prepares each statement text once per connection and binds new values to it", async () => {
    const on = onePool();
    const sql = pgDirectSql(on, pg.types);
    const answers = [];
    for (const n of [1, 2, 3])
      answers.push(await sql.$queryRaw<Array<{ n: bigint }>>`SELECT ${n}::int8 AS n`);
    expect(answers).toEqual([[{ n: 1n }], [{ n: 2n }], [{ n: 3n }]]);
    const prepared = await preparedOn(on);
    expect(prepared).toEqual([{ name: "trove_direct_0", statement: "SELECT $1::int8 AS n" }]);
  });

  it("prepares nothing with prepared: false", async () => {
    const on = onePool();
    const sql = pgDirectSql(on, pg.types, { prepared: false });
    expect(await sql.$queryRaw`SELECT ${5}::int AS n`).toEqual([{ n: 5 }]);
    expect(await preparedOn(on)).toEqual([]);
  });

  it("keeps a statement usable after it fails, and keeps failing a text that never parses", async () => {
    const on = onePool();
    const sql = pgDirectSql(on, pg.types);
    const divide = (by: number) => Prisma.sql`SELECT 10 / ${by}::int AS q`;
    await expect(sql.$queryRaw(divide(0))).rejects.toThrow(/division by zero/);
    expect(await sql.$queryRaw(divide(5))).toEqual([{ q: 2 }]);
    const broken = Prisma.sql`SELEC ${1}::int`;
    await expect(sql.$queryRaw(broken)).rejects.toThrow(/syntax error/);
    // Not "prepared statement does not exist": the failed parse was not taken as prepared.
    await expect(sql.$queryRaw(broken)).rejects.toThrow(/syntax error/);
    expect(await sql.$queryRaw(divide(2))).toEqual([{ q: 5 }]);
  });

  it(`prepares at most ${MAX_PREPARED_STATEMENTS} texts and runs any further one unnamed`, async () => {
    const on = onePool();
    const sql = pgDirectSql(on, pg.types);
    const texts = MAX_PREPARED_STATEMENTS + 20;
    for (let i = 0; i < texts; i += 1) {
      const rows = await sql.$queryRaw<Array<{ i: number }>>(
        Prisma.sql`SELECT ${i}::int AS ${Prisma.raw(`i /* ${i} */`)}`,
      );
      expect(rows).toEqual([{ i }]);
    }
    expect(await preparedOn(on)).toHaveLength(MAX_PREPARED_STATEMENTS);
  });

  const FILES = 5000;
  it("plans the first page of the file list and the folder list once, not on every request", {
    timeout: 60_000,
  }, async () => {
    const t = await createTestApp();
    try {
      for (let i = 0; i < 3; i += 1)
        await seedFile(t.app, t.workspace, { name: `f${i}.jpg`, folderPath: `d${i}` });
      const config = t.config.database;
      if (config.kind !== "postgres") throw new Error("expected the test app on PostgreSQL");
      const on = onePool(config.url);
      // Enough rows that a LIMIT the planner cannot see (it guesses a tenth of them) costs more than 25.
      await on.query(
        `INSERT INTO files (id, workspace_id, name, path, storage_key, size, mime_type, format, extension, hash,
                            upload_source, created_at, updated_at)
         SELECT gen_random_uuid(), $1::uuid, 'bulk-' || i || '.jpg', 'bulk-' || i || '.jpg', 'bulk/' || i, 10,
                'image/jpeg', 'jpeg', 'jpg', md5(i::text), 'seed', now() - i * interval '1 second', now()
         FROM generate_series(1, $2::int) AS i`,
        [t.workspace.id, FILES - 3],
      );
      await on.query("ANALYZE files");
      const sql = pgDirectSql(on, pg.types);
      // PostgreSQL decides between a cached generic plan and a fresh one after five executions.
      for (let i = 0; i < 8; i += 1) {
        const page = await listFiles(sql, t.workspace.id, { page: 1, limit: 25 });
        expect(page.rows).toHaveLength(25);
        expect(page.total).toBe(FILES);
        expect(await listFolders(sql, t.workspace.id, {})).toHaveLength(3);
      }
      const { rows } = await on.query<{ statement: string; generic_plans: string; custom_plans: string }>(
        "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements",
      );
      const plans = (needle: string) => {
        const row = rows.find((r) => r.statement.includes(needle));
        return row && { generic: Number(row.generic_plans), custom: Number(row.custom_plans) };
      };
      // Custom plans are the first five; every execution after them reuses the generic plan.
      expect(plans("FROM files f")).toEqual({ generic: 3, custom: 5 });
      expect(plans("FROM folders c")).toEqual({ generic: 3, custom: 5 });
    } finally {
      // Before the database is dropped with the app, or the dropped connection is an error.
      await pool?.end();
      pool = undefined;
      await t.close();
    }
  });
});
