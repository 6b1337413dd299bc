/**
 * The real `trove-server`, started from source in a child process on 127.0.0.1 (as the e2e
 * suite does), with fixed dev keys, a fresh data directory, the rate limit out of the way and
 * the upload caps raised for the sizes benchmarked. `database` picks PostgreSQL (a URL) or the
 * embedded PGlite (undefined). `TROVE_BENCH_CPU_PROF=<dir>` makes it write a V8 CPU profile there
 * when it stops.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Child, spawnChild } from "./children.js";
import { freePort, waitForHttp } from "./ports.js";

const SERVER_CLI = fileURLToPath(new URL("../../../apps/server/src/cli.ts", import.meta.url));
/** `--import tsx` resolves from the working directory: bench/ has tsx as a dependency. */
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

function randomKey(tag: "pk" | "sk"): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return `trove_${tag}_${Array.from(randomBytes(32), (b) => alphabet[b % alphabet.length]).join("")}`;
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
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "trove-bench-server-")));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const keys = options.keys ?? newKeys();
  const profDir = options.cpuProfileDir ?? process.env.TROVE_BENCH_CPU_PROF;
  const nodeArgs = ["--conditions=dev-source", "--import", "tsx"];
  if (profDir) nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${profDir}`);
  const child = spawnChild(process.execPath, [...nodeArgs, SERVER_CLI, "start"], {
    cwd: BENCH_DIR,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      TROVE_DATA_DIR: dataDir,
      TROVE_DEV_PUBLIC_KEY: keys.public,
      TROVE_DEV_PRIVATE_KEY: keys.private,
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
  });
  const stop = async () => {
    await child.stop(15_000);
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${baseUrl}/readyz`, {
      timeoutMs: 90_000,
      alive: () => !child.exited(),
      describe: child.output,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, assetsUrl: `${baseUrl}/assets`, pid: child.pid, keys, dataDir, child, stop };
}
