/**
 * Starts the real `trove-server` in a child process on 127.0.0.1 (an ephemeral port), from
 * source, with fixed development keys, a fresh data directory and the given extra environment.
 * Tests talk to it over real HTTP, as users do.
 *
 * Every test sends all its traffic from 127.0.0.1, so the per-address rate limits (which would
 * count a whole suite as one client) are raised here unless `env` sets them; per-key limits keep
 * their defaults. e2e/security/rate-limits.test.ts sets small ones to test them.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const SERVER_CLI = fileURLToPath(new URL("../../apps/server/src/cli.ts", import.meta.url));
// `--import tsx` resolves from the working directory: e2e/ has tsx as a dependency.
const E2E_DIR = fileURLToPath(new URL("..", import.meta.url));
const execFileAsync = promisify(execFile);

export interface ServerProcess {
  baseUrl: string;
  assetsUrl: string;
  keys: { public: string; private: string; private2: string };
  dataDir: string;
  /** Everything the process printed, for assertions and failure reports. */
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL, no cleanup: for fault tests. */
  kill(): Promise<void>;
  /** Starts the process again on the same port and data. */
  restart(): Promise<void>;
}

const PER_ADDRESS_LIMITS_RAISED = {
  TROVE_RATE_LIMIT_ADDRESS_MAX: "1000000000",
  TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX: "1000000000",
  TROVE_RATE_LIMIT_PART_ADDRESS_MAX: "1000000000",
  TROVE_ASSETS_RATE_LIMIT_MAX: "1000000000",
};

function randomKey(tag: "pk" | "sk"): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = randomBytes(32);
  return `trove_${tag}_${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("")}`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  // Under the hook timeout (120 s): a loaded 2-core machine has taken over a minute to start one.
  const deadline = Date.now() + 100_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`trove-server exited early:\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`trove-server did not become ready:\n${output()}`);
}

// A test that times out never reaches its stop(): the servers still running go when the worker exits.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export interface ServerProcessOptions {
  /** The development keys to seed (or find, on a shared database); fresh random ones by default. */
  keys?: ServerProcess["keys"];
}

export async function startServerProcess(
  env: Record<string, string> = {},
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), "trove-e2e-"));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const keys = options.keys ?? {
    public: randomKey("pk"),
    private: randomKey("sk"),
    private2: randomKey("sk"),
  };
  let log = "";
  let child: ChildProcess;

  const launch = async () => {
    child = spawn(process.execPath, ["--conditions=dev-source", "--import", "tsx", SERVER_CLI, "start"], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        TROVE_DATA_DIR: dataDir,
        TROVE_DEV_PUBLIC_KEY: keys.public,
        TROVE_DEV_PRIVATE_KEY: keys.private,
        TROVE_DEV_PRIVATE_KEY_2: keys.private2,
        LOG_LEVEL: "warn",
        ...PER_ADDRESS_LIMITS_RAISED,
        ...env,
      },
      cwd: E2E_DIR,
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.add(child);
    child.once("exit", () => running.delete(child));
    child.stdout?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
    });
    await waitUntilReady(baseUrl, child, () => log);
  };

  const exited = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once("exit", () => resolve());
    });

  await launch();
  return {
    baseUrl,
    assetsUrl: env.TROVE_ASSETS_URL ?? `${baseUrl}/assets`,
    keys,
    dataDir,
    output: () => log,
    async stop() {
      child.kill("SIGTERM");
      await exited();
      await rm(dataDir, { recursive: true, force: true });
    },
    async kill() {
      child.kill("SIGKILL");
      await exited();
    },
    async restart() {
      await launch();
    },
  };
}

/**
 * Runs one `trove-server` command (`keys create`, `keys revoke`, ...) to completion, as an operator
 * would on the server's machine, with `env` (DATABASE_URL names the database). Resolves its
 * standard output; rejects with its output when it exits non-zero.
 */
export async function runServerCommand(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await execFileAsync(
    process.execPath,
    ["--conditions=dev-source", "--import", "tsx", SERVER_CLI, ...args],
    { env: { ...process.env, LOG_LEVEL: "warn", ...env }, cwd: E2E_DIR },
  );
  return stdout;
}
