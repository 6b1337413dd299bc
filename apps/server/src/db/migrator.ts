/**
 * Applies `prisma/migrations/<name>/migration.sql` without Prisma's native schema engine.
 *
 * Each pending migration runs inside one transaction together with its row in
 * `_prisma_migrations` (Prisma's own table and columns, so `prisma migrate status` on a machine
 * that has the engine agrees with us). On PostgreSQL a session advisory lock serialises instances
 * that start together; PGlite is single-process. A migration whose file changed after it was
 * applied (checksum mismatch) is reported, not re-run, as Prisma does.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The minimum a migrator needs from a connection. Whole multi-statement scripts go through `exec`. */
export interface MigrationConnection {
  /** Runs a script of one or more statements without parameters. */
  exec(sql: string): Promise<void>;
  /** Runs one statement with positional parameters ($1, $2, ...). */
  query<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface MigrationDriver {
  /** Runs `fn` in a transaction (commit on resolve, rollback on throw). */
  transaction<T>(fn: (tx: MigrationConnection) => Promise<T>): Promise<T>;
  /** Outside any transaction. */
  connection: MigrationConnection;
  /** Optional cross-process lock held for the whole run (PostgreSQL advisory lock). */
  withLock?<T>(fn: () => Promise<T>): Promise<T>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
  /** Applied migrations whose file no longer matches what was applied. */
  checksumMismatches: string[];
}

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export class MigrationError extends Error {
  override name = "MigrationError";
  constructor(
    message: string,
    readonly migration: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** sha256 hex of the file's bytes: the value Prisma stores in `_prisma_migrations.checksum`. */
export function migrationChecksum(sql: string): string {
  return createHash("sha256").update(sql).digest("hex");
}

/**
 * Finds `prisma/migrations` of this package, from src/db (development, tests) or dist (built).
 */
export function defaultMigrationsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, "prisma", "migrations");
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error("prisma/migrations not found next to @trove/server");
}

/** Reads every `<dir>/<name>/migration.sql`, sorted by name (Prisma's timestamp prefixes). */
export function readMigrations(migrationsDir: string = defaultMigrationsDir()): Migration[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: migrationChecksum(sql) };
    });
}

interface AppliedRow extends Record<string, unknown> {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/** Applies every pending migration. Safe to call on every start (idempotent). */
export async function migrate(
  driver: MigrationDriver,
  migrations: Migration[] = readMigrations(),
): Promise<MigrateResult> {
  const run = async (): Promise<MigrateResult> => {
    await driver.connection.exec(MIGRATIONS_TABLE);
    const rows = await driver.connection.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    const failed = rows.find((row) => row.finished_at == null && row.rolled_back_at == null);
    if (failed) {
      throw new MigrationError(
        `Migration ${failed.migration_name} started but did not finish; resolve it before migrating (prisma migrate resolve)`,
        failed.migration_name,
      );
    }
    const done = new Map(
      rows.filter((row) => row.finished_at != null).map((row) => [row.migration_name, row.checksum]),
    );
    const result: MigrateResult = { applied: [], alreadyApplied: [], checksumMismatches: [] };
    for (const migration of migrations) {
      const appliedChecksum = done.get(migration.name);
      if (appliedChecksum !== undefined) {
        result.alreadyApplied.push(migration.name);
        if (appliedChecksum !== migration.checksum) result.checksumMismatches.push(migration.name);
        continue;
      }
      try {
        await driver.transaction(async (tx) => {
          const id = randomUUID();
          await tx.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
             VALUES ($1, $2, $3, now(), 0)`,
            [id, migration.checksum, migration.name],
          );
          await tx.exec(migration.sql);
          await tx.query(
            `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
            [id],
          );
        });
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new MigrationError(`Migration ${migration.name} failed: ${detail}`, migration.name, {
          cause: error,
        });
      }
      result.applied.push(migration.name);
    }
    return result;
  };
  return driver.withLock ? driver.withLock(run) : run();
}
