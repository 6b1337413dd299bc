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
  const dir = await mkdtemp(join(tmpdir(), "trove-bench-prof-"));
  try {
    const server = await startTroveServer({ ...options, cpuProfileDir: dir });
    let workMs = 0;
    let stopMs = 0;
    try {
      await steps.warm(server);
      const started = performance.now();
      await steps.work(server);
      workMs = performance.now() - started;
    } finally {
      const stopping = performance.now();
      await server.stop();
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

/** The same for one of bench/src's baseline servers, for a side-by-side profile. */
export async function profileBaselineScript(
  ctx: BenchContext,
  title: string,
  script: string,
  args: string[],
  steps: { warm: (baseUrl: string) => Promise<void>; work: (baseUrl: string) => Promise<void> },
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "trove-bench-prof-"));
  try {
    const started = await startListeningScript(script, args, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
    let workMs = 0;
    let stopMs = 0;
    try {
      await steps.warm(started.baseUrl);
      const begin = performance.now();
      await steps.work(started.baseUrl);
      workMs = performance.now() - begin;
    } finally {
      const stopping = performance.now();
      await started.child.stop();
      stopMs = performance.now() - stopping;
    }
    const file = newestProfile(dir);
    if (!file) return `${title}: no CPU profile was written.`;
    return profileMarkdown(title, summariseProfile(file, { fromEndMs: stopMs + workMs, toEndMs: stopMs }));
  } catch (error) {
    ctx.log(`  profiling failed: ${String(error)}`);
    return `${title}: profiling failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)}).`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
