/**
 * The real `trove-server`, started from its current source (bundled once per test run:
 * ./server-bundle.ts) in a child process on 127.0.0.1 (an ephemeral port) with a data directory
 * of its own: the one launcher of the e2e suites, the CLI tests and the bench. Tests talk to it
 * over real HTTP, as users do.
 *
 * `launchServer` is the bare launcher (the bench adds its own settings on top);
 * `startServerProcess` is what the test suites use: fresh random development keys, quiet logs and
 * the per-address rate limits raised.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Child, spawnChild } from "./children.js";
import { seedFromTemplate } from "./pgdata-template.js";
import { freePort, waitForHttp } from "./ports.js";
import { serverArgs } from "./server-bundle.js";

// `--import tsx` resolves from the working directory (./server-bundle.ts).
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const execFileAsync = promisify(execFile);

export interface ServerKeys {
  public: string;
  private: string;
  /** A second private key, seeded as TROVE_DEV_PRIVATE_KEY_2 when given. */
  private2?: string;
}

export function randomKey(tag: "pk" | "sk"): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return `trove_${tag}_${Array.from(randomBytes(32), (b) => alphabet[b % alphabet.length]).join("")}`;
}

export interface LaunchOptions {
  /** Settings on top of ours (port, host, data directory, keys), which it may override. */
  env?: Record<string, string>;
  keys: ServerKeys;
  /** Reuse a data directory (and keep it on stop); default: a fresh one, removed on stop. */
  dataDir?: string;
  /** Fills a fresh data directory before the first start. */
  prepareDataDir?: (dataDir: string) => Promise<void>;
  /** Node flags before the CLI, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** How long the server may take to answer /readyz. */
  readyTimeoutMs: number;
  /** How much of its output to keep (from the end). */
  keepOutput: number;
  /** SIGTERM, then SIGKILL after this many ms on stop (Infinity: wait for it to exit). */
  stopGraceMs: number;
}

export interface LaunchedServer {
  baseUrl: string;
  /** TROVE_ASSETS_URL when set, else the server's own /assets. */
  assetsUrl: string;
  keys: ServerKeys;
  dataDir: string;
  /** The process now running (a new one after restart()). */
  child(): Child;
  /** What the process printed, for assertions and failure reports. */
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL, no cleanup: for fault tests. */
  kill(): Promise<void>;
  /** Starts the process again on the same port and data. */
  restart(): Promise<void>;
}

export async function launchServer(options: LaunchOptions): Promise<LaunchedServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "trove-server-")));
  if (!options.dataDir) await options.prepareDataDir?.(dataDir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const { keys } = options;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    TROVE_DATA_DIR: dataDir,
    TROVE_DEV_PUBLIC_KEY: keys.public,
    TROVE_DEV_PRIVATE_KEY: keys.private,
    ...(keys.private2 ? { TROVE_DEV_PRIVATE_KEY_2: keys.private2 } : {}),
    ...options.env,
  };
  let child: Child | undefined;
  const removeDataDir = () => (options.dataDir ? undefined : rm(dataDir, { recursive: true, force: true }));

  const launch = async () => {
    const started = spawnChild(process.execPath, [...serverArgs(options.nodeArgs), "start"], {
      cwd: PACKAGE_DIR,
      env,
      keepOutput: options.keepOutput,
    });
    child = started;
    try {
      await waitForHttp(`${baseUrl}/readyz`, {
        timeoutMs: options.readyTimeoutMs,
        alive: () => !started.exited(),
        describe: started.output,
      });
    } catch (error) {
      await started.kill();
      throw error;
    }
  };
  const current = (): Child => {
    if (!child) throw new Error("trove-server was never started");
    return child;
  };

  try {
    await launch();
  } catch (error) {
    await removeDataDir();
    throw error;
  }
  return {
    baseUrl,
    assetsUrl: options.env?.TROVE_ASSETS_URL ?? `${baseUrl}/assets`,
    keys,
    dataDir,
    child: current,
    output: () => current().output(),
    async stop() {
      await current().stop(options.stopGraceMs);
      await removeDataDir();
    },
    kill: () => current().kill(),
    restart: launch,
  };
}

/** The server the test suites start: three development keys, as `startServerProcess` seeds them. */
export interface ServerProcess extends Omit<LaunchedServer, "keys" | "child"> {
  keys: Required<ServerKeys>;
}

export interface ServerProcessOptions {
  /** The development keys to seed (or find, on a shared database); fresh random ones by default. */
  keys?: ServerProcess["keys"];
}

/**
 * V8 compiles WebAssembly with its baseline compiler only: the embedded database (PGlite, a
 * PostgreSQL build in WebAssembly) otherwise has its hot functions recompiled by the optimizing
 * tier on background threads, about 1.6 s of CPU per process start on a 2-core machine, which a
 * suite's few hundred statements never earn back (the e2e and CLI projects: 653 -> 516 CPU-s).
 * Only how fast the same code runs changes; the bench starts its servers without it.
 */
const TEST_NODE_ARGS = ["--liftoff-only"];

// Every test sends all its traffic from 127.0.0.1, so the per-address rate limits (which would
// count a whole suite as one client) are raised unless `env` sets them; per-key limits keep their
// defaults. e2e/security/rate-limits.test.ts sets small ones to test them.
const PER_ADDRESS_LIMITS_RAISED = {
  TROVE_RATE_LIMIT_ADDRESS_MAX: "1000000000",
  TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX: "1000000000",
  TROVE_RATE_LIMIT_PART_ADDRESS_MAX: "1000000000",
  TROVE_ASSETS_RATE_LIMIT_MAX: "1000000000",
};

/** The real server for a test suite, with the given extra environment. */
export async function startServerProcess(
  env: Record<string, string> = {},
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const keys = options.keys ?? {
    public: randomKey("pk"),
    private: randomKey("sk"),
    private2: randomKey("sk"),
  };
  const serverEnv = { LOG_LEVEL: "warn", ...PER_ADDRESS_LIMITS_RAISED, ...env };
  const server = await launchServer({
    env: serverEnv,
    keys,
    // A copy of the database the global setup migrated, when it did (./pgdata-template.ts).
    prepareDataDir: (dataDir) => seedFromTemplate(dataDir, serverEnv),
    // Under the hook timeout (120 s): a loaded 2-core machine has taken over a minute to start one.
    readyTimeoutMs: 100_000,
    // Tests assert on everything it printed.
    keepOutput: Number.POSITIVE_INFINITY,
    nodeArgs: TEST_NODE_ARGS,
    // A test that stops the server waits for its graceful shutdown, however long.
    stopGraceMs: Number.POSITIVE_INFINITY,
  });
  const { child: _child, ...rest } = server;
  return { ...rest, keys };
}

/**
 * Runs one `trove-server` command (`keys create`, `keys revoke`, ...) to completion, as an operator
 * would on the server's machine, with `env` (DATABASE_URL names the database). Resolves its
 * standard output; rejects with its output when it exits non-zero.
 */
export async function runServerCommand(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, [...serverArgs(TEST_NODE_ARGS), ...args], {
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    cwd: PACKAGE_DIR,
  });
  return stdout;
}
