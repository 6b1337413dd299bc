import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createPgdataTemplate, seedFromTemplate } from "../src/pgdata-template.js";

/** Stands in for `trove-server migrate`: writes a pgdata folder (and a key file, never copied). */
async function fakeMigrate(dataDir: string): Promise<void> {
  await mkdir(join(dataDir, "pgdata"), { recursive: true });
  await writeFile(join(dataDir, "pgdata", "PG_VERSION"), "17");
  await writeFile(join(dataDir, "secret.key"), "one server's secret");
}

const cleanups: Array<() => Promise<void>> = [];
// In a full run the e2e global setup has made the real template, and the workers inherit it.
beforeEach(() => {
  vi.stubEnv("TROVE_TEST_PGDATA_TEMPLATE", undefined);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  vi.unstubAllEnvs();
});

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "trove-seed-test-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe("pgdata template", () => {
  it("copies the migrated database, and only it, into a fresh data directory", async () => {
    cleanups.push(await createPgdataTemplate(fakeMigrate));
    const dataDir = await freshDir();
    await seedFromTemplate(dataDir, {});
    expect(await readFile(join(dataDir, "pgdata", "PG_VERSION"), "utf8")).toBe("17");
    await expect(readFile(join(dataDir, "secret.key"))).rejects.toThrow(/ENOENT/);
  });

  it("leaves the data directory empty for a server on PostgreSQL", async () => {
    cleanups.push(await createPgdataTemplate(fakeMigrate));
    const dataDir = await freshDir();
    await seedFromTemplate(dataDir, { DATABASE_URL: "postgres://127.0.0.1:5432/trove" });
    await expect(readFile(join(dataDir, "pgdata", "PG_VERSION"))).rejects.toThrow(/ENOENT/);
  });

  it("makes one template per run, and none is used after its teardown", async () => {
    let runs = 0;
    const migrate = async (dir: string) => {
      runs++;
      await fakeMigrate(dir);
    };
    const removeFirst = await createPgdataTemplate(migrate);
    const removeSecond = await createPgdataTemplate(migrate);
    expect(runs).toBe(1);
    await removeSecond();
    await removeFirst();
    const dataDir = await freshDir();
    await seedFromTemplate(dataDir, {});
    await expect(readFile(join(dataDir, "pgdata", "PG_VERSION"))).rejects.toThrow(/ENOENT/);
  });
});
