import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { seedDevelopment } from "../src/keys/seed.js";
import { pgliteTemplate } from "./support/create-test-app.js";
import { returnPgliteDatabase, takePgliteDatabase } from "./support/pglite-pool.js";

// The test apps' database pool (./support/pglite-pool.ts): a database comes back empty, and one
// whose schema a test changed never comes back.
describe("the test apps' PGlite pool", () => {
  const secretKey = randomBytes(32);

  it("hands a returned database to the next app with every row gone and the session reset", async () => {
    const first = await takePgliteDatabase(pgliteTemplate);
    await seedDevelopment(first.prisma, { devKeys: {}, secretKey });
    expect(await first.prisma.workspace.count()).toBe(1);
    expect(await first.prisma.apiKey.count()).toBe(2);
    await first.pglite?.exec("SET statement_timeout = 1234");
    await returnPgliteDatabase(first);

    const next = await takePgliteDatabase(pgliteTemplate);
    try {
      expect(next).toBe(first);
      expect(await next.prisma.workspace.count()).toBe(0);
      expect(await next.prisma.apiKey.count()).toBe(0);
      const timeout = await next.pglite?.query<{ statement_timeout: string }>("SHOW statement_timeout");
      expect(timeout?.rows[0]?.statement_timeout).toBe("0");
      // Migrations stay recorded: the app finds its schema up to date.
      expect((await next.migrate()).applied).toEqual([]);
    } finally {
      await returnPgliteDatabase(next);
    }
  });

  it.each([
    ["a disabled trigger", "ALTER TABLE files DISABLE TRIGGER files_counted"],
    ["a new column", "ALTER TABLE workspaces ADD COLUMN scratch int"],
    ["a dropped index", "DROP INDEX files_workspace_id_name_idx"],
    [
      "a new function",
      "CREATE OR REPLACE FUNCTION trove_pool_probe() RETURNS int LANGUAGE sql AS 'SELECT 1'",
    ],
  ])("closes a database with %s instead of reusing it", async (_change, statement) => {
    const changed = await takePgliteDatabase(pgliteTemplate);
    await changed.pglite?.exec(statement);
    await returnPgliteDatabase(changed);
    await expect(changed.pglite?.query("SELECT 1")).rejects.toThrow();

    const next = await takePgliteDatabase(pgliteTemplate);
    try {
      expect(next).not.toBe(changed);
    } finally {
      await returnPgliteDatabase(next);
    }
  });

  it("closes a database a test closed without failing the return", async () => {
    const closed = await takePgliteDatabase(pgliteTemplate);
    await closed.close();
    await expect(returnPgliteDatabase(closed)).resolves.toBeUndefined();
    const next = await takePgliteDatabase(pgliteTemplate);
    expect(next).not.toBe(closed);
    await returnPgliteDatabase(next);
  });
});
