/**
 * Runs the real `trove` binary in a child process: src/bin.ts built from source by the global
 * setup (./global-setup.ts). Its home, config and state directories are temporary, so nothing on
 * the machine leaks in, and stdout is a pipe, so the command prints plain lines.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";

export interface TroveResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface TroveHome {
  /** A temporary HOME with XDG_CONFIG_HOME and TROVE_STATE_DIR inside it. */
  dir: string;
  env: Record<string, string>;
  stateDir: string;
  configDir: string;
  cleanup(): Promise<void>;
}

export async function troveHome(): Promise<TroveHome> {
  const dir = await mkdtemp(join(tmpdir(), "trove-cli-home-"));
  const env = {
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, ".config"),
    TROVE_STATE_DIR: join(dir, ".trove"),
  };
  return {
    dir,
    env,
    stateDir: env.TROVE_STATE_DIR,
    configDir: join(env.XDG_CONFIG_HOME, "trove"),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** The environment of the child: ours without any TROVE_* setting, then `env`. */
function childEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("TROVE_") && key !== "NODE_OPTIONS") base[key] = value;
  }
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete base[key];
    else base[key] = value;
  }
  return base;
}

export function spawnTrove(args: string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, [inject("troveBin"), ...args], {
    cwd: options.cwd ?? tmpdir(),
    env: childEnv(options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Collects a child's output as it arrives; `done` settles when it exits. */
export function watch(child: ChildProcess): { output(): TroveResult; done: Promise<TroveResult> } {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const output = (): TroveResult => ({
    code: child.exitCode,
    signal: child.signalCode as NodeJS.Signals | null,
    stdout,
    stderr,
  });
  const done = new Promise<TroveResult>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { output, done };
}

/** Runs `trove …` to the end. */
export function trove(args: string[], options: SpawnOptions = {}): Promise<TroveResult> {
  return watch(spawnTrove(args, options)).done;
}

/** Runs `trove … --json` (or with --json already in args) and parses stdout. */
export async function troveJson<T = unknown>(args: string[], options: SpawnOptions = {}): Promise<T> {
  const result = await trove(args.includes("--json") ? args : [...args, "--json"], options);
  if (result.code !== 0) {
    throw new Error(`trove ${args.join(" ")} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  }
  return JSON.parse(result.stdout) as T;
}
