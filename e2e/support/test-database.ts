/**
 * A PostgreSQL database of its own for one suite, on the server named by TROVE_TEST_DATABASE_URL
 * (an admin connection that may CREATE DATABASE); dropped again by `drop()`. `psql` must be on PATH.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";

export interface TestDatabase {
  /** Connection URL of the new database. */
  url: string;
  drop(): void;
}

export function createTestDatabase(adminUrl: string, label: string): TestDatabase {
  const name = `trove_${label}_${randomBytes(4).toString("hex")}`;
  const psql = (sql: string) => execFileSync("psql", [adminUrl, "-v", "ON_ERROR_STOP=1", "-qc", sql]);
  psql(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
