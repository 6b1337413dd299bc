/**
 * PostgreSQL for the benches: an admin connection (TROVE_BENCH_DATABASE_URL, default the local
 * `trove_bench` role with CREATEDB) that creates one fresh database per server and drops it after.
 * When nothing answers, `probePostgres()` returns undefined and the benches fall back to the
 * embedded PGlite, and say so in their rows.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export const DEFAULT_ADMIN_URL = "postgres://trove_bench:trove_bench@127.0.0.1:5432/postgres";

export interface PostgresAdmin {
  adminUrl: string;
  version: string;
  createDatabase(): Promise<BenchDatabase>;
}

export interface BenchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function probePostgres(
  adminUrl = process.env.TROVE_BENCH_DATABASE_URL || DEFAULT_ADMIN_URL,
): Promise<PostgresAdmin | undefined> {
  let version: string;
  try {
    version = await withClient(adminUrl, async (client) => {
      const result = await client.query<{ server_version: string }>("SHOW server_version");
      return result.rows[0]?.server_version ?? "?";
    });
  } catch {
    return undefined;
  }
  return {
    adminUrl,
    version,
    async createDatabase() {
      const name = `trove_bench_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
      await withClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        name,
        drop: () =>
          withClient(adminUrl, (client) =>
            client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
          ).then(() => undefined),
      };
    },
  };
}
