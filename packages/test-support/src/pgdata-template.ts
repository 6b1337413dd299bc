/**
 * A migrated embedded database (PGlite's `pgdata`) made once per test run by the global setup,
 * copied into each fresh data directory the suites' servers start on. Creating and migrating
 * PGlite is most of a server's start on a 2-core machine; a copy of the result is a fraction of
 * it. The server still runs its migrations at start, and finds them applied.
 *
 * Only the database is copied: no keys are in it (`trove-server migrate` seeds none) and each
 * server still creates its own secret key. The workers find the template through the
 * environment, which they inherit from the process that ran the global setup.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const TEMPLATE_ENV = "TROVE_TEST_PGDATA_TEMPLATE";

/**
 * Makes the template with `migrate` (which runs `trove-server migrate` on the data directory it
 * is given); resolves the teardown that removes it.
 */
export async function createPgdataTemplate(
  migrate: (dataDir: string) => Promise<unknown>,
): Promise<() => Promise<void>> {
  // One run of several projects (e2e and the CLI tests) makes one template.
  if (process.env[TEMPLATE_ENV]) return async () => {};
  const dir = await mkdtemp(join(tmpdir(), "trove-pgdata-template-"));
  await migrate(dir);
  process.env[TEMPLATE_ENV] = join(dir, "pgdata");
  return async () => {
    delete process.env[TEMPLATE_ENV];
    await rm(dir, { recursive: true, force: true });
  };
}

/**
 * Copies the template into `dataDir` when there is one and the server will use the embedded
 * database (no DATABASE_URL); otherwise the server creates its database itself, as it always can.
 */
export async function seedFromTemplate(dataDir: string, env: Record<string, string>): Promise<void> {
  const template = process.env[TEMPLATE_ENV];
  if (!template || env.DATABASE_URL || process.env.DATABASE_URL) return;
  await cp(template, join(dataDir, "pgdata"), { recursive: true });
}
