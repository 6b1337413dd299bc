/**
 * Runs one of bench/src's own scripts in a child process: `startListeningScript` for a server
 * (waits for "listening <port>"; `startPlainListeningScript` without tsx), `runJsonScript` for a
 * client that prints one JSON line last.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Child, spawnChild } from "@trove/test-support/children";
import { transform } from "esbuild";
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
  return listeningChild(child, relative);
}

/**
 * The same for a baseline server run as plain JavaScript, without tsx: esbuild strips the types
 * of the script (a single file importing only Node's modules) into a temporary `.mjs`, so no
 * loader thread or source-map hook runs beside the server it measures.
 */
export async function startPlainListeningScript(
  relative: string,
  args: string[],
  outDir: string,
): Promise<{ child: Child; port: number; baseUrl: string }> {
  const source = benchScript(relative);
  const { code } = await transform(readFileSync(source, "utf8"), {
    loader: "ts",
    format: "esm",
    platform: "node",
    target: "node20",
  });
  const plain = join(outDir, `${basename(source, ".ts")}.mjs`);
  writeFileSync(plain, code);
  return listeningChild(spawnChild(process.execPath, [plain, ...args], { cwd: BENCH_DIR }), relative);
}

async function listeningChild(
  child: Child,
  relative: string,
): Promise<{ child: Child; port: number; baseUrl: string }> {
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
