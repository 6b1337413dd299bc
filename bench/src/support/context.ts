/** What every bench receives from the runner. */
import type { PostgresAdmin } from "./postgres.js";
import type { Scratch } from "./test-files.js";
import type { TroveServer } from "./trove-server.js";

export interface BenchContext {
  quick: boolean;
  /** Profile trove-server (one more, unmeasured pass) where a target is missed. */
  profile: boolean;
  /** Measured repetitions per figure (medians are over these). */
  runs: number;
  scratch: Scratch;
  /** PostgreSQL admin, or undefined when none answered (the benches then use PGlite). */
  postgres: PostgresAdmin | undefined;
  /** "PostgreSQL 15.x" or "PGlite (no PostgreSQL reachable)". */
  databaseLabel: string;
  /** A trove-server on the fs driver shared by benches 1, 3, 4 and 6 (started on first use). */
  fsServer(): Promise<TroveServer>;
  /** A database URL for a server of its own (undefined: PGlite); dropped when the run ends. */
  databaseUrl(): Promise<string | undefined>;
  log(message: string): void;
}
