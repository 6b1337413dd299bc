/**
 * Migrations on a real PostgreSQL: several instances starting at once apply each migration once.
 * Included only when TROVE_TEST_DATABASE_URL names an admin connection (see vitest.config.ts);
 * `.ci/run` sets it.
 */
import { describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/database.js";
import { readMigrations } from "../src/db/migrator.js";

const adminUrl = process.env.TROVE_TEST_DATABASE_URL;

describe("migrations on PostgreSQL (TROVE_TEST_DATABASE_URL)", () => {
  it("instances starting together apply each migration once (advisory lock)", {
    timeout: 60_000,
  }, async () => {
    const pg = (await import("pg")).default;
    const name = `trove_test_mig_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const databases = await Promise.all(
      [1, 2, 3, 4].map(() => openDatabase({ kind: "postgres", url: url.toString() })),
    );
    try {
      const results = await Promise.all(databases.map((db) => db.migrate()));
      const applied = results.flatMap((r) => r.applied);
      expect(applied).toEqual(readMigrations().map((m) => m.name));
      const rows = await databases[0]!.prisma.$queryRaw<
        Array<{ n: bigint }>
      >`SELECT count(*) AS n FROM "_prisma_migrations"`;
      expect(Number(rows[0]!.n)).toBe(readMigrations().length);
      expect(await databases[0]!.prisma.workspace.count()).toBe(0);
    } finally {
      await Promise.all(databases.map((db) => db.close()));
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
