/**
 * `databaseCpuMeter(databaseUrl)`: CPU seconds of the PostgreSQL backends connected to one
 * database, between `start` and `stop`, read from /proc like ./cpu-time.ts. Counting every
 * `postgres` process on the machine (`commandCpuSeconds`) also counts whatever else uses the same
 * PostgreSQL (another bench's server, other work sharing the machine), and goes negative when a
 * backend exits mid-run; a server's pooled connections live through a run, so their backends are
 * the ones to read. Backends that connect during the run count from zero.
 */
import pg from "pg";
import { procCpuSeconds } from "./cpu-time.js";

async function backendCpu(client: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    [database],
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, procCpuSeconds(pid));
    } catch {
      // Exited between the query and the read: it did no work this meter can attribute.
    }
  }
  return cpu;
}

/** Undefined without a PostgreSQL URL (PGlite runs inside the server process). */
export async function databaseCpuMeter(
  databaseUrl: string | undefined,
): Promise<
  | { measure<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }>; close(): Promise<void> }
  | undefined
> {
  if (!databaseUrl) return undefined;
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    async measure(work) {
      const before = await backendCpu(client, database);
      const result = await work();
      const after = await backendCpu(client, database);
      let seconds = 0;
      for (const [pid, cpu] of after) seconds += cpu - (before.get(pid) ?? 0);
      return { result, seconds };
    },
    close: () => client.end(),
  };
}
