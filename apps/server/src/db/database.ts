/**
 * Opens the database: Prisma Client over a driver adapter (no native engines).
 *
 * - `{ kind: "pglite", dataDir }`: embedded PostgreSQL (PGlite) in `dataDir`, or in memory when
 *   `dataDir` is null. One process only; PGlite serialises every query, so keep transactions
 *   short and inside `$transaction(async (tx) => ...)` use only `tx` (the outer client would wait
 *   for the transaction forever).
 * - `{ kind: "postgres", url }`: any PostgreSQL through `@prisma/adapter-pg` (a `pg` pool).
 *
 * `Database.migrate()` applies prisma/migrations (see ./migrator.ts); `close()` disconnects Prisma
 * and then closes PGlite / the pool.
 *
 * A PGlite directory is held under a lock for as long as it is open (./data-dir-lock.ts): a second
 * process opening it gets `DataDirLockedError` (naming the holder and what to do) instead of a
 * database whose writes the first process never sees.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { DatabaseConfig } from "../config.js";
import { PrismaClient } from "../generated/prisma/client.js";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.js";
import { type DirectSql, pgDirectSql, pgliteDirectSql } from "./direct-sql.js";

/**
 * Under load, requests queue for a pooled connection (10 on PostgreSQL, one at a time on PGlite).
 * Prisma's defaults (2 s to start a transaction, 5 s to finish it) turned 200 concurrent uploads
 * into hundreds of P2028 failures; a queued transaction should wait its turn, as a queued query
 * does, and fail only when the database is really out of reach.
 */
const TRANSACTION_OPTIONS = { maxWait: 30_000, timeout: 30_000 };

import {
  type MigrateResult,
  type Migration,
  type MigrationDriver,
  migrate,
  readMigrations,
} from "./migrator.js";

export { Prisma, PrismaClient } from "../generated/prisma/client.js";
export type DbKind = "pglite" | "postgres";

export interface Database {
  kind: DbKind;
  prisma: PrismaClient;
  /** Single statements without Prisma, for the hottest paths (./direct-sql.ts). */
  sql: DirectSql;
  /** The PGlite instance (embedded only); tests use it for raw SQL. */
  pglite: PGlite | undefined;
  migrate(migrations?: Migration[]): Promise<MigrateResult>;
  /** Resolves when the database answers `SELECT 1`. */
  ping(): Promise<void>;
  /** The lock on the PGlite directory (embedded on disk only); the server records its address in it. */
  dataLock?: DataDirLock;
  /** Connections of the `pg` pool (PostgreSQL only: PGlite is one connection, without a pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** Key of the PostgreSQL advisory lock held while migrating ("trove-mg"). */
export const MIGRATION_LOCK_KEY = 0x74726f76656d67n;

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.kind === "pglite"
    ? openPglite(config.dataDir, config.loadDataDir)
    : openPostgres(config.url, config.preparedStatements ?? true);
}

/** What a lock holder runs, for the message another process gets: the command line's arguments. */
function commandOfThisProcess(): string {
  return process.argv.slice(2).join(" ") || "start";
}

async function openPglite(dataDir: string | null, loadDataDir?: Blob): Promise<Database> {
  let dataLock: DataDirLock | undefined;
  if (dataDir) {
    mkdirSync(dirname(dataDir), { recursive: true });
    dataLock = acquireDataDirLock(dataDir, commandOfThisProcess());
    mkdirSync(dataDir, { recursive: true });
  }
  // Each database's client is loaded by the open that uses it: a server on PGlite never loads
  // pg and its Prisma adapter (about 0.07 s of CPU at start), one on PostgreSQL never PGlite.
  let pglite: PGlite;
  let PrismaPGlite: typeof import("pglite-prisma-adapter").PrismaPGlite;
  try {
    const [{ PGlite }, adapter] = await Promise.all([
      import("@electric-sql/pglite"),
      import("pglite-prisma-adapter"),
    ]);
    PrismaPGlite = adapter.PrismaPGlite;
    pglite = await PGlite.create({
      ...(dataDir ? { dataDir } : {}),
      ...(loadDataDir ? { loadDataDir } : {}),
    });
  } catch (error) {
    dataLock?.release();
    throw error;
  }
  const prisma = new PrismaClient({
    adapter: new PrismaPGlite(pglite),
    transactionOptions: TRANSACTION_OPTIONS,
  });
  const driver: MigrationDriver = {
    connection: pgliteConnection(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(pgliteConnection(tx))),
  };
  let closed = false;
  return {
    kind: "pglite",
    prisma,
    sql: pgliteDirectSql(pglite),
    pglite,
    ...(dataLock ? { dataLock } : {}),
    migrate: (migrations = readMigrations()) => migrate(driver, migrations),
    async ping() {
      await pglite.query("SELECT 1");
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await prisma.$disconnect();
        await pglite.close();
      } finally {
        dataLock?.release();
      }
    },
  };
}

function pgliteConnection(db: Pick<PGlite, "exec" | "query">): MigrationDriver["connection"] {
  return {
    async exec(sql) {
      await db.exec(sql);
    },
    async query<T extends Record<string, unknown>>(sql: string, params: unknown[] = []) {
      const result = await db.query<T>(sql, params);
      return result.rows;
    },
  };
}

async function openPostgres(url: string, preparedStatements: boolean): Promise<Database> {
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import("pg"), import("@prisma/adapter-pg")]);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that loses its connection must not crash the process.
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS });
  let closed = false;
  return {
    kind: "postgres",
    prisma,
    sql: pgDirectSql(pool, pg.types, { prepared: preparedStatements }),
    pglite: undefined,
    migrate: (migrations = readMigrations()) => migratePostgres(url, migrations),
    async ping() {
      await pool.query("SELECT 1");
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await pool.end().catch(() => {});
    },
  };
}

/** Migrates over one dedicated connection: the advisory lock is per session. */
async function migratePostgres(url: string, migrations: Migration[]): Promise<MigrateResult> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  const connection: MigrationDriver["connection"] = {
    async exec(sql) {
      await client.query(sql);
    },
    async query<T extends Record<string, unknown>>(sql: string, params: unknown[] = []) {
      const result = await client.query(sql, params);
      return result.rows as T[];
    },
  };
  const driver: MigrationDriver = {
    connection,
    async transaction(fn) {
      await client.query("BEGIN");
      try {
        const result = await fn(connection);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    },
    async withLock(fn) {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
      try {
        return await fn();
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY.toString()]).catch(() => {});
      }
    },
  };
  try {
    return await migrate(driver, migrations);
  } finally {
    await client.end().catch(() => {});
  }
}
