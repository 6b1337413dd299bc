/**
 * Bench 4d: the small uploads of bench 4, but every upload's bytes differ (as real uploads do), so
 * the default server's placeholder sweep decodes every one of them rather than copying the first
 * one's placeholder. The two trove-servers of bench 4c (defaults; stripping and placeholders
 * off), alternating. The default server's CPU is counted until its sweep has worked through the
 * run's uploads: that is what the features cost per upload, even when the load ends before the
 * work does.
 */
import type { BenchContext } from "../support/context.js";
import { commandCpuSeconds, cpuMeter } from "../support/cpu-time.js";
import type { LoadResult } from "../support/load.js";
import { withPendingPlaceholders } from "../support/pending-placeholders.js";
import { type BenchResult, fmt, ratioText } from "../support/report.js";
import { median } from "../support/stats.js";
import { startTroveServer } from "../support/trove-server.js";
import { distinctBodies, phoneUpload, postForm, startPlainServer } from "./small-upload-servers.js";

export async function benchDistinctSmallUploads(ctx: BenchContext): Promise<BenchResult> {
  const { form } = await phoneUpload();
  const nextBody = distinctBodies(form.body);
  const sweepEnv = { TROVE_JOB_POLL_INTERVAL_MS: "1000" };
  const troveDb = await ctx.databaseUrl();
  const server = await startTroveServer({ databaseUrl: troveDb, env: sweepEnv });
  const plainServer = await startPlainServer(await ctx.databaseUrl(), sweepEnv);
  const duration = ctx.quick ? 3 : 6;
  const rounds = Math.max(2, ctx.runs);
  const trove: LoadResult[] = [];
  const plain: LoadResult[] = [];
  const cpu = { trove: [] as number[], plain: [] as number[], drainSeconds: [] as number[] };
  const load = (target: { baseUrl: string; keys: { public: string } }, seconds: number) =>
    postForm(
      `${target.baseUrl}/api/v1/uploads`,
      form,
      seconds,
      { "x-api-key": target.keys.public },
      nextBody,
    );
  try {
    await withPendingPlaceholders(troveDb, async (pending) => {
      await load(server, 2);
      await load(plainServer, 2);
      await pending.drained();
      for (let run = 0; run < rounds; run += 1) {
        // The plain server first: the default server's sweep may run on after its load, and is
        // waited for (and counted) before anything else is measured.
        let meter = cpuMeter({ server: plainServer.pid });
        let postgres = commandCpuSeconds("postgres");
        plain.push(await load(plainServer, duration));
        cpu.plain.push(cpuSeconds(meter.stop(), commandCpuSeconds("postgres") - postgres));

        meter = cpuMeter({ server: server.pid });
        postgres = commandCpuSeconds("postgres");
        trove.push(await load(server, duration));
        const loadEnded = Date.now();
        await pending.drained();
        cpu.drainSeconds.push((Date.now() - loadEnded) / 1000);
        cpu.trove.push(cpuSeconds(meter.stop(), commandCpuSeconds("postgres") - postgres));
        ctx.log(
          `  run ${run + 1}: Trove ${fmt(trove[run]?.requestsPerSecond ?? 0, 0)} req/s, without stripping and ` +
            `placeholders ${fmt(plain[run]?.requestsPerSecond ?? 0, 0)} req/s; its sweep ran on for ` +
            `${fmt(cpu.drainSeconds[run] ?? 0, 1)} s after the load`,
        );
      }
    });
  } finally {
    await plainServer.stop();
    await server.stop();
  }
  const rps = (results: LoadResult[]) => median(results.map((r) => r.requestsPerSecond));
  const perUpload = (seconds: number[], results: LoadResult[]) =>
    median(seconds.map((s, i) => (s * 1000) / (results[i]?.requests ?? 1)));
  const ratio = rps(trove) / rps(plain);
  const troveMs = perUpload(cpu.trove, trove);
  const plainMs = perUpload(cpu.plain, plain);
  const drainNote =
    troveDb === undefined
      ? " (embedded PGlite: the sweep's backlog cannot be read from outside, so its CPU after the load is not waited for)"
      : "";
  return {
    rows: [
      {
        id: "4d",
        figure:
          "small uploads whose bytes all differ, with stripping and placeholders (default) vs without, req/s",
        trove: fmt(rps(trove), 0),
        baseline:
          `${fmt(rps(plain), 0)} (trove-server, \`embedded_metadata: keep\`, \`TROVE_PLACEHOLDERS=false\`; CPU per ` +
          `upload, server + PostgreSQL, with the sweep's work until done: ${fmt(troveMs, 2)} ms against ${fmt(plainMs, 2)} ms)`,
        ratio: ratioText(ratio),
        target: "— (reported)",
        met: "n/a",
      },
    ],
    notes: [
      [
        "**4d. Small uploads of distinct images.** Bench 4's form, with two entries of the JPEG's " +
          "quantization table rewritten in each request (a counter), so no two uploads share a hash and the default server decodes " +
          `every one for its placeholder. ${rounds} rounds of ${duration} s, the server without the features first.${drainNote}`,
        `- Default server: ${trove.map((r) => fmt(r.requestsPerSecond, 0)).join(", ")} req/s; its sweep ran on for ` +
          `${cpu.drainSeconds.map((s) => fmt(s, 1)).join(", ")} s after each load (CPU counted).`,
        `- Without stripping and placeholders: ${plain.map((r) => fmt(r.requestsPerSecond, 0)).join(", ")} req/s.`,
      ].join("\n"),
    ],
  };
}

const cpuSeconds = (measured: Record<string, number>, postgres: number) =>
  (measured.server ?? Number.NaN) + postgres;
