/**
 * Waiting for a trove-server's placeholder sweep to work through its backlog, read from its
 * PostgreSQL database (`files` rows still marked pending). With the embedded PGlite (no URL) the
 * database cannot be read from outside: `drained()` then returns at once.
 */
import pg from "pg";

export interface PendingPlaceholders {
  /** Resolves once no file is pending (polled every 100 ms, for at most `timeoutMs`). */
  drained(timeoutMs?: number): Promise<void>;
}

export async function withPendingPlaceholders<T>(
  databaseUrl: string | undefined,
  fn: (pending: PendingPlaceholders) => Promise<T>,
): Promise<T> {
  if (databaseUrl === undefined) return fn({ drained: async () => {} });
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  await client.connect();
  try {
    return await fn({
      async drained(timeoutMs = 180_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const { rows } = await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM files WHERE placeholder_attempts IS NOT NULL",
          );
          if ((rows[0]?.n ?? 0) === 0) return;
          if (Date.now() > deadline) throw new Error(`placeholders still pending after ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      },
    });
  } finally {
    await client.end().catch(() => {});
  }
}
