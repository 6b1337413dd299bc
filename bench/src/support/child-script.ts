/**
 * Runs one of bench/src's own scripts in a child process: `startListeningScript` for a server
 * (waits for "listening <port>"), `runJsonScript` for a client that prints one JSON line last.
 */
import { fileURLToPath } from "node:url";
import { type Child, spawnChild } from "@trove/test-support/children";
import { BENCH_DIR } from "./trove-server.js";

export function benchScript(relative: string): string {
  return fileURLToPath(new URL(`../${relative}`, import.meta.url));
}

export async function startListeningScript(
  relative: string,
  args: string[],
  nodeArgs: string[] = [],
): Promise<{ child: Child; port: number; baseUrl: string }> {
  const child = spawnChild(
    process.execPath,
    ["--import", "tsx", ...nodeArgs, benchScript(relative), ...args],
    {
      cwd: BENCH_DIR,
    },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = /listening (\d+)/.exec(child.output());
    if (match) {
      const port = Number(match[1]);
      return { child, port, baseUrl: `http://127.0.0.1:${port}` };
    }
    if (child.exited() || Date.now() > deadline) {
      await child.stop();
      throw new Error(`${relative} did not start:\n${child.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs a script to its end and parses the last line it printed as JSON. */
export async function runJsonScript<T>(
  relative: string,
  args: string[],
  nodeArgs: string[] = [],
): Promise<T> {
  const child = spawnChild(
    process.execPath,
    ["--conditions=dev-source", "--import", "tsx", ...nodeArgs, benchScript(relative), ...args],
    { cwd: BENCH_DIR },
  );
  const exitCode = await new Promise<number | null>((resolve) => {
    if (child.exited()) resolve(child.process.exitCode);
    else child.process.once("exit", (code) => resolve(code));
  });
  const line = child.output().trim().split("\n").pop() ?? "";
  if (exitCode !== 0 || !line.startsWith("{"))
    throw new Error(`${relative} failed (${exitCode}):\n${child.output()}`);
  return JSON.parse(line) as T;
}
