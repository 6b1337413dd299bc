/**
 * Bench 13: video transforms through the delivery host's asynchronous lifecycle, beside the same
 * ffmpeg work run bare. A 1080p, 10 s H.264 + AAC clip (made with ffmpeg's test sources in this run)
 * is stored in Trove; `w_720` and `f_gif,so_0,eo_5,w_400` are asked for, and the time is taken from
 * the first request until the URL serves the output, polling every 100 ms as a client would. The
 * baseline runs the engine's own transcode of the same clip and transform in this process (the same
 * ffmpeg command line, no HTTP, no job queue, no storage). Trove's server RSS is sampled during its
 * transcodes (ffmpeg is a child process and reported apart).
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  locateVideoTools,
  probeVideo,
  resolveVideoLimits,
  transcodeVideo,
} from "../../../apps/server/src/media/video/index.js";
import { DEFAULT_VIDEO_CONFIG } from "../../../apps/server/src/media/video/video-config.js";
import { parseVideoTransform } from "../../../packages/schema/src/index.js";
import type { BenchContext } from "../support/context.js";
import { readProcMemory, sampleRss } from "../support/proc-memory.js";
import { type BenchResult, fmt, ratioText, verdict } from "../support/report.js";
import { MiB, median } from "../support/stats.js";
import { troveClient } from "../support/trove-client.js";
import { startTroveServer } from "../support/trove-server.js";

const TARGET = 1.15;
const MEMORY_TARGET_MIB = 150;
const POLL_MS = 100;
const TRANSFORMS = [
  { id: "13a", transform: "w_720", label: "`w_720` (MP4)" },
  { id: "13b", transform: "f_gif,so_0,eo_5,w_400", label: "`f_gif,so_0,eo_5,w_400`" },
] as const;

/** The ffmpeg child processes of `pid` (their RSS is not the server's). */
function childRss(pid: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid) total += readProcMemory(Number(entry)).rss;
    } catch {
      // gone
    }
  }
  return total;
}

/** Milliseconds from the first GET of `url` until it answers 200 with the output. */
async function untilReady(url: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status === 200) return performance.now() - started;
    if (response.status !== 202) throw new Error(`GET ${url}: ${response.status}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function benchVideoTranscode(ctx: BenchContext): Promise<BenchResult> {
  const tools = await locateVideoTools({});
  if (!tools) throw new Error("no ffmpeg: install it or the optional @ffmpeg-installer/linux-x64");
  const clip = join(ctx.scratch.dir, "clip-1080p-10s.mp4");
  const made = spawnSync(tools.ffmpeg, [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-f", "lavfi"],
    ...["-i", "sine=frequency=440:sample_rate=48000", "-t", "10", "-c:v", "libx264", "-preset", "fast"],
    ...["-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip],
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg could not make the clip: ${made.stderr}`);
  const limits = resolveVideoLimits(DEFAULT_VIDEO_CONFIG);
  const probe = await probeVideo(tools, clip, "mp4", limits);

  const server = await startTroveServer({ databaseUrl: await ctx.databaseUrl() });
  const rows: BenchResult["rows"] = [];
  const notes: string[] = [];
  try {
    const { client } = troveClient(server);
    const runs = ctx.quick ? 1 : 3;
    const idle = readProcMemory(server.pid).rss;
    let peakServer = idle;
    let peakFfmpeg = 0;
    for (const { id, transform, label } of TRANSFORMS) {
      const trove: number[] = [];
      const bare: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        // A file of its own per run: its outputs are never cached from an earlier run.
        const file = await client.upload(new Uint8Array(readFileSync(clip)), {
          fileName: `clip-${id}-${run}.mp4`,
        });
        const sampler = sampleRss(server.pid, 50);
        const ffmpegSampler = setInterval(() => {
          peakFfmpeg = Math.max(peakFfmpeg, childRss(server.pid));
        }, 50);
        try {
          trove.push(await untilReady(client.url(file, transform)));
        } finally {
          clearInterval(ffmpegSampler);
          peakServer = Math.max(peakServer, sampler.stop().peak);
        }
        const output = join(ctx.scratch.dir, `bare-${id}-${run}`);
        // The same samplers run beside the bare transcode: reading /proc every 50 ms takes CPU
        // from ffmpeg on a 2-core machine, and only Trove's side paid it before.
        const bareSampler = sampleRss(process.pid, 50);
        const bareFfmpegSampler = setInterval(() => childRss(process.pid), 50);
        const started = performance.now();
        try {
          await transcodeVideo(tools, {
            input: clip,
            probe,
            transform: parseVideoTransform(transform),
            output,
            limits,
          });
        } finally {
          clearInterval(bareFfmpegSampler);
          bareSampler.stop();
        }
        bare.push(performance.now() - started);
        statSync(output);
      }
      const ratio = median(trove) / median(bare);
      rows.push({
        id,
        figure: `${label} of a 1080p 10 s H.264 clip, ms from the first request until the output is served (polled every ${POLL_MS} ms)`,
        trove: fmt(median(trove), 0),
        baseline: `${fmt(median(bare), 0)} (the same transcode, ffmpeg run bare)`,
        ratio: ratioText(ratio),
        target: `≤ ${TARGET}×`,
        met: verdict(ratio <= TARGET),
      });
      notes.push(
        `${label}: Trove ${trove.map((ms) => fmt(ms, 0)).join(", ")} ms; bare ${bare.map((ms) => fmt(ms, 0)).join(", ")} ms`,
      );
    }
    const growth = (peakServer - idle) / MiB;
    rows.push({
      id: "13c",
      figure: "growth of trove-server's RSS during those transcodes, MiB (ffmpeg's own RSS apart)",
      trove: fmt(growth, 0),
      baseline: `${fmt(idle / MiB, 0)} MiB idle; ffmpeg peak ${fmt(peakFfmpeg / MiB, 0)} MiB`,
      ratio: "—",
      target: `≤ ${MEMORY_TARGET_MIB} MiB`,
      met: verdict(growth <= MEMORY_TARGET_MIB),
    });
    return {
      rows,
      notes: [
        `**13. Video.** A 1080p 10 s clip (testsrc2 at 30 fps + a 440 Hz tone, libx264 + AAC, ${fmt(statSync(clip).size / MiB, 1)} MiB; ` +
          `probed ${probe.width}×${probe.height}, ${fmt(probe.durationSeconds, 1)} s), uploaded once per run so no output is cached; ` +
          `ffmpeg ${tools.version} (${tools.origin}). ${notes.join("; ")}.`,
      ],
    };
  } finally {
    await server.stop();
  }
}
