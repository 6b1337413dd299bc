/**
 * Test support for route tests (not shipped: lives outside src/).
 *
 *   import { createTestApp, seedFile } from "../test/support/index.js";
 *
 *   const t = await createTestApp();
 *   try {
 *     const file = await seedFile(t.app, t.workspace, { name: "cat.jpg", folderPath: "photos/2024" });
 *     const res = await t.app.inject({
 *       method: "GET",
 *       url: `/api/v1/files/${file.fileNo}`,
 *       headers: { "x-api-key": t.keys.private },
 *     });
 *   } finally {
 *     await t.close();
 *   }
 *
 * `createTestApp(overrides?)`:
 * - database: an in-memory PGlite cloned from a migrated template, or an emptied one another app
 *   returned (./pglite-pool.ts), or, when
 *   TROVE_TEST_DATABASE_URL is set (an admin connection to PostgreSQL), a new uniquely named
 *   database created for this app and dropped by `close()`;
 * - storage: an fs driver in a fresh temp directory (`storageDir`), removed by `close()`;
 * - keys: `keys.public` / `keys.private` in `workspace`, `keys.private2` in `workspace2`
 *   (seeded through the TROVE_DEV_* mechanism);
 * - logging off unless `overrides.logger` is given; rate limits high (10 000 a minute per key,
 *   more per address) unless overridden, field by field.
 * Pass extra route plugins in `overrides.routes`, or register them on `t.app` before first use.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { type BuildAppOptions, buildApp } from "../../src/app.js";
import { type ConfigInput, type DatabaseConfig, resolveConfig, type ServerConfig } from "../../src/config.js";
import { type Database, openDatabase } from "../../src/db/database.js";
import { readMigrations } from "../../src/db/migrator.js";
import type { Workspace } from "../../src/generated/prisma/client.js";
import { generateApiKey } from "../../src/keys/api-keys.js";
import { returnPgliteDatabase, takePgliteDatabase } from "./pglite-pool.js";

export interface TestAppOverrides {
  /** Config fields to override (rateLimit, assetsUrl, ...). */
  config?: Partial<ConfigInput>;
  logger?: BuildAppOptions["logger"];
  routes?: BuildAppOptions["routes"];
  storage?: BuildAppOptions["storage"];
}

export interface TestApp {
  app: FastifyInstance;
  config: ServerConfig;
  keys: { public: string; private: string; private2: string };
  workspace: Workspace;
  workspace2: Workspace;
  /** Root of the fs storage driver. */
  storageDir: string;
  /** Temp directory of this app (storage, secret files); removed by close(). */
  dataDir: string;
  close(): Promise<void>;
}

/** Every limit high enough that only rate-limit tests, which lower some, ever meet one. */
const TEST_RATE_LIMITS = {
  max: 10_000,
  windowMs: 60_000,
  addressMax: 100_000,
  publicKeyMax: 100_000,
  publicKeyAddressMax: 10_000,
  partAddressMax: 100_000,
  assetsMax: 100_000,
};

/** Env var set by test/global-setup.ts: a dump of a migrated PGlite database. */
export const PGLITE_TEMPLATE_ENV = "TROVE_TEST_PGLITE_TEMPLATE";

let templatePromise: Promise<Blob> | undefined;

/** A migrated empty database as a PGlite data-dir dump (from global setup, else built once here). */
export function pgliteTemplate(): Promise<Blob> {
  templatePromise ??= (async () => {
    const file = process.env[PGLITE_TEMPLATE_ENV];
    if (file && existsSync(file)) return new Blob([readFileSync(file)]);
    return buildPgliteTemplate();
  })();
  return templatePromise;
}

export async function buildPgliteTemplate(): Promise<Blob> {
  const database = await openDatabase({ kind: "pglite", dataDir: null });
  try {
    await database.migrate(readMigrations());
    const pglite = database.pglite as PGlite;
    return await pglite.dumpDataDir("none");
  } finally {
    await database.close();
  }
}

async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `trove_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function createTestApp(overrides: TestAppOverrides = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), "trove-test-"));
  const keys = {
    public: generateApiKey("public"),
    private: generateApiKey("private"),
    private2: generateApiKey("private"),
  };
  const cleanups: Array<() => Promise<void>> = [() => rm(dataDir, { recursive: true, force: true })];
  const runCleanups = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };

  try {
    let database: DatabaseConfig;
    // On PGlite the app gets an emptied database from the pool (./pglite-pool.ts), returned once
    // the app is closed; on PostgreSQL, a database of its own.
    let pooled: Database | undefined;
    const adminUrl = process.env.TROVE_TEST_DATABASE_URL;
    if (adminUrl) {
      const created = await createPostgresDatabase(adminUrl);
      cleanups.push(created.drop);
      database = { kind: "postgres", url: created.url };
    } else {
      database = { kind: "pglite", dataDir: null, loadDataDir: await pgliteTemplate() };
      const taken = await takePgliteDatabase(pgliteTemplate);
      pooled = taken;
      cleanups.push(() => returnPgliteDatabase(taken));
    }

    const config = resolveConfig({
      port: 0,
      dataDir,
      storageDir: join(dataDir, "storage"),
      database,
      secretKey: randomBytes(32),
      logLevel: "silent",
      ...overrides.config,
      // Fields a test sets replace these; the others stay high (inject traffic is all 127.0.0.1).
      rateLimit: { ...TEST_RATE_LIMITS, ...overrides.config?.rateLimit },
      devKeys: { publicKey: keys.public, privateKey: keys.private, privateKey2: keys.private2 },
      seedDev: true,
    });

    const app = await buildApp({
      config,
      ...(pooled ? { database: pooled, closeDatabase: false } : {}),
      logger: overrides.logger ?? false,
      ...(overrides.routes ? { routes: overrides.routes } : {}),
      ...(overrides.storage ? { storage: overrides.storage } : {}),
    });
    // Closing the app closes the database; then the temp dir and (PostgreSQL) the database go.
    cleanups.push(() => app.close().then(() => undefined));
    await app.ready();

    const workspace = app.seedResult?.workspace;
    const workspace2 = app.seedResult?.workspace2;
    if (!workspace || !workspace2) throw new Error("createTestApp: development seeding did not run");

    let closed = false;
    return {
      app,
      config,
      keys,
      workspace,
      workspace2,
      storageDir: config.storageDir,
      dataDir,
      async close() {
        if (closed) return;
        closed = true;
        await runCleanups();
      },
    };
  } catch (error) {
    await runCleanups();
    throw error;
  }
}
