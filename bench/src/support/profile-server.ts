/**
 * For a missed target: the same work once more against a trove-server started with
 * `--cpu-prof`, summarised. Unmeasured (profiling slows the server), full profile only.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startListeningScript } from "./child-script.js";
import type { BenchContext } from "./context.js";
import { newestProfile, profileMarkdown, summariseProfile } from "./cpu-profile.js";
import { startTroveServer, type TroveServer, type TroveServerOptions } from "./trove-server.js";

export async function profileTroveServer(
  ctx: BenchContext,
  title: string,
  options: TroveServerOptions,
  steps: {
    /** Runs first, outside the profiled window (lazy imports, JIT). */
    warm: (server: TroveServer) => Promise<void>;
    /** The profiled window. */
    work: (server: TroveServer) => Promise<void>;
  },
): Promise<string> {
  return profileWindow(
    ctx,
    title,
    async (dir) => {
      const server = await startTroveServer({ ...options, cpuProfileDir: dir });
      return { target: server, stop: () => server.stop() };
    },
    steps,
  );
}

/** The same for one of bench/src's baseline servers, for a side-by-side profile. */
export async function profileBaselineScript(
  ctx: BenchContext,
  title: string,
  script: string,
  args: string[],
  steps: { warm: (baseUrl: string) => Promise<void>; work: (baseUrl: string) => Promise<void> },
): Promise<string> {
  return profileWindow(
    ctx,
    title,
    async (dir) => {
      const started = await startListeningScript(script, args, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
      return { target: started.baseUrl, stop: () => started.child.stop() };
    },
    steps,
  );
}

/**
 * Starts a process that writes its CPU profile into a temporary directory when it stops, runs
 * `warm` then the profiled `work` against it, stops it, and summarises the window of the work.
 */
async function profileWindow<T>(
  ctx: BenchContext,
  title: string,
  start: (profileDir: string) => Promise<{ target: T; stop: () => Promise<void> }>,
  steps: { warm: (target: T) => Promise<void>; work: (target: T) => Promise<void> },
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "trove-bench-prof-"));
  try {
    const { target, stop } = await start(dir);
    let workMs = 0;
    let stopMs = 0;
    try {
      await steps.warm(target);
      const started = performance.now();
      await steps.work(target);
      workMs = performance.now() - started;
    } finally {
      const stopping = performance.now();
      await stop();
      stopMs = performance.now() - stopping;
    }
    const file = newestProfile(dir);
    if (!file) return `${title}: no CPU profile was written.`;
    // The profile ends when the process exits: the window is the work, counted back from there.
    return profileMarkdown(title, summariseProfile(file, { fromEndMs: stopMs + workMs, toEndMs: stopMs }));
  } catch (error) {
    ctx.log(`  profiling failed: ${String(error)}`);
    return `${title}: profiling failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)}).`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
