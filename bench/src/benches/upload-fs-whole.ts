/**
 * Bench 1b: a large upload as a user runs it (`createClient(...).upload(path)` from
 * `@trove/sdk/node`, every setting at its default) against the simplest ceiling there is: one
 * node:http PUT of the same file, piped from a read stream into a new file on the same disk and
 * fsynced, on a bare server (bare-put-server.ts). Unlike row 1 the baseline does not mimic the
 * SDK's parts, so whatever the defaults cost (requests, part size, concurrency, the client's
 * reads) counts against Trove. Pairs alternate Trove / baseline.
 *
 * The baseline runs as fast as the machine lets it: its client is a process of its own
 * (children/bare-whole-put.ts), its server plain JavaScript without the tsx loader, and before
 * each upload, on both sides, the disk is settled (sync: no earlier upload's dirty pages are
 * written back during the next) with the source file read into the page cache once before.
 * The SDK runs from a process of its own too (children/sdk-default-upload.ts), as a user's
 * program would, rather than in the bench process.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { bareDelete } from "../support/bare-upload-client.js";
import { runJsonScript, startPlainListeningScript } from "../support/child-script.js";
import type { BenchContext } from "../support/context.js";
import { cpuMeter } from "../support/cpu-time.js";
import { type BenchResult, fmt, ratioText, verdict } from "../support/report.js";
import { settleDisk } from "../support/settle-disk.js";
import { GiB, MiB, mbPerSecond, median } from "../support/stats.js";
import { troveClient } from "../support/trove-client.js";

export async function benchUploadFsWhole(ctx: BenchContext): Promise<BenchResult> {
  const size = GiB;
  const path = await ctx.scratch.bytesFile(size);
  const server = await ctx.fsServer();
  const { client } = troveClient(server);
  const bareDir = await mkdtemp(join(tmpdir(), "trove-bench-whole-"));
  const bare = await startPlainListeningScript("baselines/bare-put-server.ts", [bareDir], bareDir);
  /** One PUT from the client's own process; its time is measured there, process start excluded. */
  const bareUpload = (source: string, bytes: number) =>
    runJsonScript<{ ms: number; id: string; cpuSeconds: number }>("children/bare-whole-put.ts", [
      bare.baseUrl,
      source,
      String(bytes),
    ]);
  /** The SDK's default upload from a process of its own, timed there like the baseline. */
  const troveUpload = (source: string) =>
    runJsonScript<{
      ms: number;
      size: number;
      fileNo: string;
      cpuSeconds: number;
      partSize: number | null;
      completeMs: number | null;
    }>("children/sdk-default-upload.ts", [server.baseUrl, server.keys.private, server.assetsUrl, source]);
  let part: number | null = null;
  const trove: number[] = [];
  const baseline: number[] = [];
  const troveCpu: Array<Record<string, number>> = [];
  const baseCpu: Array<Record<string, number>> = [];
  const completes: number[] = [];
  try {
    // One small unmeasured upload each (JIT, lazy imports).
    const warmPath = await ctx.scratch.bytesFile(32 * MiB);
    await client.files.delete((await troveUpload(warmPath)).fileNo);
    await bareDelete(bare.baseUrl, (await bareUpload(warmPath, 32 * MiB)).id);
    // The same page-cache state for both sides: the source cached and clean, nothing dirty.
    await pipeline(
      createReadStream(path),
      new Writable({
        write: (_chunk, _encoding, done) => done(),
      }),
    );

    for (let run = 0; run < ctx.runs; run += 1) {
      await settleDisk();
      let meter = cpuMeter({ server: server.pid });
      const file = await troveUpload(path);
      trove.push(file.ms);
      // The client is the child, not this process.
      troveCpu.push({ ...meter.stop(), client: file.cpuSeconds });
      if (file.size !== size) throw new Error(`Trove stored ${file.size} bytes, expected ${size}`);
      await client.files.delete(file.fileNo);
      completes.push(file.completeMs ?? Number.NaN);
      part = file.partSize;

      await settleDisk();
      meter = cpuMeter({ server: bare.child.pid });
      const { ms, id, cpuSeconds } = await bareUpload(path, size);
      baseline.push(ms);
      // The client is the child, not this process.
      baseCpu.push({ ...meter.stop(), client: cpuSeconds });
      await bareDelete(bare.baseUrl, id);
      ctx.log(
        `  pair ${run + 1}: Trove ${fmt(mbPerSecond(size, trove[run] as number))} MB/s, one bare PUT ${fmt(mbPerSecond(size, baseline[run] as number))} MB/s`,
      );
    }

    const troveMbps = mbPerSecond(size, median(trove));
    const baseMbps = mbPerSecond(size, median(baseline));
    const ratio = troveMbps / baseMbps;
    const perGiB = (samples: Array<Record<string, number>>, name: string) =>
      median(samples.map((s) => (s[name] ?? Number.NaN) / (size / GiB)));
    const cpuLine = (samples: Array<Record<string, number>>) =>
      `client ${fmt(perGiB(samples, "client"), 2)} CPU-s/GiB, server ${fmt(perGiB(samples, "server"), 2)} CPU-s/GiB`;
    return {
      rows: [
        {
          id: "1b",
          figure: `upload of ${size / MiB} MiB, SDK defaults → server (gateway) → fs, MB/s`,
          trove: fmt(troveMbps),
          baseline: `${fmt(baseMbps)} (one bare node:http PUT → file, fsync)`,
          ratio: ratioText(ratio),
          target: "≥ 0.8×",
          met: verdict(ratio >= 0.8),
        },
      ],
      notes: [
        [
          `**1b. Large upload against one bare PUT.** ${size / MiB} MiB of incompressible bytes from a file in the ` +
            `page cache. Trove: \`createClient(...).upload(path)\` with the SDK's defaults, from a client process of its own (the server chose parts of ` +
            `${part === null ? "?" : fmt(part / MiB, 0)} MiB at start); baseline: one node:http PUT of the file ` +
            "(`pipeline` from `fs.createReadStream`) from a client process of its own, that a bare server (plain " +
            "JavaScript, no tsx) pipes into a new file and fsyncs. Before each upload the disk is settled (sync), " +
            `the source read into the page cache once before all. ${trove.length} pair(s), alternating.`,
          `- Trove runs (MB/s): ${trove.map((ms) => fmt(mbPerSecond(size, ms))).join(", ")}; ${cpuLine(troveCpu)}; ` +
            `\`multipart/complete\` ${fmt(median(completes), 0)} ms (median)`,
          `- Baseline runs (MB/s): ${baseline.map((ms) => fmt(mbPerSecond(size, ms))).join(", ")}; ${cpuLine(baseCpu)}`,
        ].join("\n"),
      ],
    };
  } finally {
    await bare.child.stop();
    await rm(bareDir, { recursive: true, force: true });
  }
}
