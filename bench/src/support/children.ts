/**
 * Every child process a bench starts is registered here, so that one call (and the process's
 * own exit, whatever the cause) stops all of them. Only processes this bench spawned are touched.
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

const live = new Set<ChildProcess>();

export interface Child {
  process: ChildProcess;
  pid: number;
  /** stdout and stderr seen so far (the last 20 kB). */
  output(): string;
  exited(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export function spawnChild(command: string, args: string[], options: SpawnOptions = {}): Child {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  if (child.pid === undefined) throw new Error(`could not start ${command} ${args.join(" ")}`);
  live.add(child);
  let log = "";
  const append = (data: Buffer) => {
    log = (log + data.toString()).slice(-20_000);
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
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** Stops every child still running (SIGTERM, then SIGKILL). */
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
