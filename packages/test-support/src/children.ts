/**
 * Every child process a suite or a bench starts through here is registered, so that one call (and
 * the process's own exit, whatever the cause: a test that times out never reaches its stop())
 * stops all of them. Only processes started here are touched.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

const live = new Set<ChildProcess>();

export interface Child {
  process: ChildProcess;
  pid: number;
  /** stdout and stderr seen so far (the last `keepOutput` characters). */
  output(): string;
  exited(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs` (never, if Infinity); resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL, no grace; resolves once the process is gone. */
  kill(): Promise<void>;
}

export interface ChildOptions extends SpawnOptions {
  /** How much of the output to keep, from the end; default 20 000 characters. */
  keepOutput?: number;
}

export function spawnChild(command: string, args: string[], options: ChildOptions = {}): Child {
  const { keepOutput = 20_000, ...spawnOptions } = options;
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...spawnOptions });
  if (child.pid === undefined) throw new Error(`could not start ${command} ${args.join(" ")}`);
  live.add(child);
  let log = "";
  const append = (data: Buffer) => {
    log = (log + data.toString()).slice(-keepOutput);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  let gone = false;
  const exit = new Promise<void>((resolve) => {
    child.once("exit", () => {
      gone = true;
      live.delete(child);
      resolve();
    });
  });
  return {
    process: child,
    pid: child.pid,
    output: () => log,
    exited: () => gone,
    async stop(graceMs = 5000) {
      if (gone) return;
      child.kill("SIGTERM");
      const timer = Number.isFinite(graceMs) ? setTimeout(() => child.kill("SIGKILL"), graceMs) : undefined;
      await exit;
      clearTimeout(timer);
    },
    async kill() {
      if (gone) return;
      child.kill("SIGKILL");
      await exit;
    },
  };
}

/** Stops every child still running (SIGTERM, then SIGKILL after 3 s). */
export async function stopAllChildren(): Promise<void> {
  const running = [...live];
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
          child.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
}

// Whatever ends this process (a crash included), no child outlives it.
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});
