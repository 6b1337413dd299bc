/**
 * CPU seconds of the PostgreSQL backends serving one database, read from /proc: the work a
 * server hands to its database, without the other databases' backends on the same machine
 * (`commandCpuSeconds("postgres")` counts every one, which another suite's load inflates).
 * The backends are those connected when the meter starts: pools that are warm and stay open
 * for the run (a backend that exits during it takes its CPU along).
 */
import type pg from "pg";
import { procCpuSeconds } from "./cpu-time.js";

function readAll(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      out.set(pid, procCpuSeconds(pid));
    } catch {
      // Ended since it was listed.
    }
  }
  return out;
}

/** Starts a meter on `db`'s database (the meter's own connection left out); `stop()` gives seconds. */
export async function databaseBackendsCpu(db: pg.Client): Promise<{ stop(): number }> {
  const { rows } = await db.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  const pids = rows.map((row) => row.pid);
  const before = readAll(pids);
  return {
    stop() {
      let total = 0;
      for (const [pid, seconds] of readAll(pids)) total += seconds - (before.get(pid) ?? seconds);
      return total;
    },
  };
}
