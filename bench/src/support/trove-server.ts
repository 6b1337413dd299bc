/**
 * The real `trove-server`, started from source in a child process on 127.0.0.1 by the launcher
 * every suite shares (@trove/test-support/server-process), with fixed dev keys, a fresh data directory, the rate limit out of the way and
 * the upload caps raised for the sizes benchmarked. `database` picks PostgreSQL (a URL) or the
 * embedded PGlite (undefined). `TROVE_BENCH_CPU_PROF=<dir>` makes it write a V8 CPU profile there
 * when it stops.
 */
import { fileURLToPath } from "node:url";
import type { Child } from "@trove/test-support/children";
import { launchServer, randomKey } from "@trove/test-support/server-process";

/** The bench's own folder, where its child scripts resolve their dependencies. */
export const BENCH_DIR = fileURLToPath(new URL("../..", import.meta.url));

export interface TroveServer {
  baseUrl: string;
  assetsUrl: string;
  pid: number;
  keys: { public: string; private: string };
  dataDir: string;
  child: Child;
  stop(): Promise<void>;
}

export interface TroveServerOptions {
  /** PostgreSQL URL; undefined: the embedded PGlite in the data directory. */
  databaseUrl?: string | undefined;
  env?: Record<string, string>;
  /** Reuse a data directory (and keep it on stop); default: a fresh one, removed on stop. */
  dataDir?: string;
  keys?: { public: string; private: string };
  /** Write a V8 CPU profile (`--cpu-prof`) into this directory when the server stops. */
  cpuProfileDir?: string;
}

export function newKeys(): { public: string; private: string } {
  return { public: randomKey("pk"), private: randomKey("sk") };
}

export async function startTroveServer(options: TroveServerOptions = {}): Promise<TroveServer> {
  const profDir = options.cpuProfileDir ?? process.env.TROVE_BENCH_CPU_PROF;
  const keys = options.keys ?? newKeys();
  const server = await launchServer({
    keys,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    nodeArgs: profDir ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [],
    env: {
      NODE_ENV: "production",
      TROVE_SEED_DEV: "true",
      LOG_LEVEL: "warn",
      // Every limit raised: a bench measures the server, not 429s, and all its traffic is 127.0.0.1.
      TROVE_RATE_LIMIT_MAX: "1000000000",
      TROVE_RATE_LIMIT_ADDRESS_MAX: "1000000000",
      TROVE_RATE_LIMIT_PUBLIC_KEY_MAX: "1000000000",
      TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX: "1000000000",
      TROVE_RATE_LIMIT_PART_ADDRESS_MAX: "1000000000",
      TROVE_ASSETS_RATE_LIMIT_MAX: "1000000000",
      TROVE_MAX_UPLOAD_BYTES: String(3 * 1024 ** 3),
      TROVE_MAX_MULTIPART_BYTES: String(8 * 1024 ** 3),
      TROVE_JOB_POLL_INTERVAL_MS: "5000",
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
    readyTimeoutMs: 90_000,
    keepOutput: 20_000,
    stopGraceMs: 15_000,
  });
  const child = server.child();
  return {
    baseUrl: server.baseUrl,
    assetsUrl: `${server.baseUrl}/assets`,
    pid: child.pid,
    keys,
    dataDir: server.dataDir,
    child,
    stop: server.stop,
  };
}
