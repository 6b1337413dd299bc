/**
 * The committed migrations produce exactly prisma/schema.prisma: apply them with our migrator to a
 * fresh PGlite, then ask Prisma's migration engine (WebAssembly) for the SQL that would take that
 * database to the schema; it must be empty.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { describe, expect, it } from "vitest";
import { createSchemaEngine, diffDatabaseToSchema, diffEmptyToSchema } from "../scripts/schema-engine.mjs";
import { openDatabase } from "../src/db/database.js";
import {
  defaultMigrationsDir,
  type MigrationDriver,
  migrate,
  migrationChecksum,
  readMigrations,
} from "../src/db/migrator.js";

const schema = readFileSync(join(import.meta.dirname, "..", "prisma", "schema.prisma"), "utf8");
/** Lines that change the database (the engine prints comments even for an empty diff). */
const statements = (sql: string) =>
  sql
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("--"));

function pgliteDriver(pglite: PGlite): MigrationDriver {
  const connection = (db: Pick<PGlite, "exec" | "query">) => ({
    exec: async (sql: string) => {
      await db.exec(sql);
    },
    query: async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
      (await db.query<T>(sql, params)).rows,
  });
  return {
    connection: connection(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(connection(tx))),
  };
}

describe("migrations", () => {
  it("produce exactly the schema in schema.prisma (schema-engine-wasm diff is empty)", {
    timeout: 120_000,
  }, async () => {
    const pglite = await PGlite.create();
    try {
      await migrate(pgliteDriver(pglite), readMigrations());
      const engine = await createSchemaEngine(new PrismaPGlite(pglite), schema);
      const drift = await diffDatabaseToSchema(engine, schema);
      expect(statements(drift), drift).toEqual([]);
      // The check can fail: a schema with one more column differs from the migrated database...
      const widened = schema.replace(
        "model Job {",
        'model Job {\n  extraColumn String? @map("extra_column")',
      );
      expect(await diffDatabaseToSchema(engine, widened)).toMatch(/ADD COLUMN\s+"extra_column"/);
      // ...and the engine sees the tables (an empty diff is not an empty database).
      const fromEmpty = await diffEmptyToSchema(engine, schema);
      expect(fromEmpty).toContain('CREATE TABLE "files"');
      engine.free();
    } finally {
      await pglite.close();
    }
  });

  it("are recorded in _prisma_migrations with Prisma's columns, and re-running applies nothing", async () => {
    const database = await openDatabase({ kind: "pglite", dataDir: null });
    try {
      const migrations = readMigrations();
      expect(migrations.length).toBeGreaterThan(0);
      const first = await database.migrate(migrations);
      expect(first.applied).toEqual(migrations.map((m) => m.name));
      const second = await database.migrate(migrations);
      expect(second).toEqual({ applied: [], alreadyApplied: first.applied, checksumMismatches: [] });

      const rows = (
        await database.pglite!.query<Record<string, unknown>>(
          `SELECT * FROM "_prisma_migrations" ORDER BY migration_name`,
        )
      ).rows;
      expect(rows).toHaveLength(migrations.length);
      const row = rows[0]!;
      expect(Object.keys(row).sort()).toEqual(
        [
          "applied_steps_count",
          "checksum",
          "finished_at",
          "id",
          "logs",
          "migration_name",
          "rolled_back_at",
          "started_at",
        ].sort(),
      );
      expect(row.migration_name).toBe(migrations[0]!.name);
      expect(row.checksum).toBe(
        migrationChecksum(
          readFileSync(join(defaultMigrationsDir(), migrations[0]!.name, "migration.sql"), "utf8"),
        ),
      );
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    } finally {
      await database.close();
    }
  });

  it("a failing migration rolls back completely and is not recorded", async () => {
    const database = await openDatabase({ kind: "pglite", dataDir: null });
    try {
      const good = { name: "20000101000000_good", sql: 'CREATE TABLE "a" ("id" INT);', checksum: "x" };
      const bad = {
        name: "20000101000001_bad",
        sql: 'CREATE TABLE "b" ("id" INT);\nTHIS IS NOT SQL;',
        checksum: "y",
      };
      await expect(database.migrate([good, bad])).rejects.toThrow(/20000101000001_bad failed/);
      const pglite = database.pglite!;
      const recorded = (
        await pglite.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations"`)
      ).rows;
      expect(recorded.map((r) => r.migration_name)).toEqual([good.name]);
      const tables = (
        await pglite.query<{ table_name: string }>(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('a', 'b')`,
        )
      ).rows;
      expect(tables.map((r) => r.table_name)).toEqual(["a"]);
    } finally {
      await database.close();
    }
  });

  it("reports applied migrations whose file changed", async () => {
    const database = await openDatabase({ kind: "pglite", dataDir: null });
    try {
      await database.migrate([{ name: "20000101000000_a", sql: "SELECT 1;", checksum: "one" }]);
      const result = await database.migrate([
        { name: "20000101000000_a", sql: "SELECT 2;", checksum: "two" },
      ]);
      expect(result.checksumMismatches).toEqual(["20000101000000_a"]);
      expect(result.applied).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
