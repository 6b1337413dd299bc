/**
 * Embedded databases for test apps, reused across apps instead of booted afresh for each.
 *
 * Booting PGlite from the migrated template costs about 0.9 s of CPU, most of what a test app
 * cost (1.25 s) and about a third of the server project's CPU. A database an app is done with is
 * emptied (every table truncated, identities restarted, session state discarded) and handed to
 * the next app, unless its schema differs in any way from the template's (a test altered a
 * table, disabled a trigger, replaced a function): that one is closed, never reused. The app
 * settles its background work (fresh renders' bookkeeping, deliveries) before it closes, so no
 * late write reaches the next app's data.
 *
 * Apps open at the same time get different databases; at most MAX_IDLE wait per worker.
 */
import { type Database, openDatabase } from "../../src/db/database.js";

const MAX_IDLE = 2;

/** Migrations applied, tables, columns, indexes, constraints, triggers (and whether enabled), functions. */
const FINGERPRINT_SQL = `
SELECT md5(string_agg(x, E'\\n' ORDER BY x)) AS fingerprint FROM (
  SELECT 'migration ' || migration_name || ' ' || coalesce(checksum, '') || ' ' || coalesce(finished_at::text, '')
    FROM _prisma_migrations
  UNION ALL
  SELECT 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' '
         || coalesce(column_default, '') || ' ' || is_nullable
    FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
  UNION ALL
  SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
  UNION ALL
  SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL
  SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text || ' ' || tgfoid::regproc::text
    FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL
  SELECT 'function ' || n.nspname || '.' || p.proname || ' ' || md5(p.prosrc)
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  UNION ALL
  SELECT 'schema ' || nspname FROM pg_namespace
) AS parts(x)`;

/** Every table but the migrations' record, in one statement: foreign keys need them together. */
const TRUNCATE_SQL = `
DO $$
DECLARE tables text;
BEGIN
  SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') INTO tables
    FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations';
  IF tables IS NOT NULL THEN
    EXECUTE 'TRUNCATE ' || tables || ' RESTART IDENTITY CASCADE';
  END IF;
END $$`;

const idle: Database[] = [];
let templateFingerprint: Promise<string> | undefined;

async function fingerprintOf(database: Database): Promise<string> {
  const pglite = database.pglite;
  if (!pglite) throw new Error("pglite-pool: not an embedded database");
  const result = await pglite.query<{ fingerprint: string }>(FINGERPRINT_SQL);
  const fingerprint = result.rows[0]?.fingerprint;
  if (!fingerprint) throw new Error("pglite-pool: the fingerprint query returned nothing");
  return fingerprint;
}

/** An empty migrated database: a returned one when there is one, else booted from `template`. */
export async function takePgliteDatabase(template: () => Promise<Blob>): Promise<Database> {
  const kept = idle.pop();
  if (kept) return kept;
  const database = await openDatabase({ kind: "pglite", dataDir: null, loadDataDir: await template() });
  // The first fresh database, before any app used it, is what every returned one must match.
  templateFingerprint ??= fingerprintOf(database);
  await templateFingerprint;
  return database;
}

/** Empties `database` for the next app, or closes it when it cannot be reused as it is. */
export async function returnPgliteDatabase(database: Database): Promise<void> {
  try {
    const expected = templateFingerprint ? await templateFingerprint : undefined;
    const pglite = database.pglite;
    if (idle.length >= MAX_IDLE || !pglite || !expected || (await fingerprintOf(database)) !== expected) {
      await database.close();
      return;
    }
    await pglite.exec(TRUNCATE_SQL);
    // Session settings, temporary tables, prepared statements and advisory locks a test left.
    await pglite.exec("DISCARD ALL");
    // Another app may have returned one meanwhile.
    if (idle.length >= MAX_IDLE) await database.close();
    else idle.push(database);
  } catch {
    // Closed by the test, or in a state the reset could not undo: never reused.
    await database.close().catch(() => {});
  }
}
