/**
 * Bench 3: memory. (a) Peak RSS (VmHWM) of a Node process whose only job is the SDK uploading a
 * large file from disk (multipart, 4 parts in flight). (b) Growth of trove-server's RSS (VmRSS
 * from /proc, sampled every 20 ms) while it receives a 1 GiB direct upload (one
 * multipart/form-data POST streamed to the fs driver, sent by the SDK from another process),
 * over its RSS just before. (c) That client's own peak over its RSS before the upload, beside
 * Node's fetch posting the same form (FormData over a file-backed Blob), which holds it whole.
 */
import { runJsonScript } from "../support/child-script.js";
import type { BenchContext } from "../support/context.js";
import { readProcMemory, sampleRss } from "../support/proc-memory.js";
import { type BenchResult, fmt, verdict } from "../support/report.js";
import { GiB, MiB } from "../support/stats.js";
import { troveClient } from "../support/trove-client.js";
import type { TroveServer } from "../support/trove-server.js";
import { CONCURRENCY } from "./upload-fs.js";

interface ChildReport {
  rssBefore: number;
  maxRss: number;
  ms: number;
  size: number;
  peak: { heapUsed: number; arrayBuffers: number };
}

function uploadInChild(
  server: TroveServer,
  path: string,
  mode: "multipart" | "direct" | "fetch",
): Promise<ChildReport> {
  return mode === "fetch"
    ? runJsonScript<ChildReport>("children/fetch-form-upload.ts", [server.baseUrl, server.keys.private, path])
    : runJsonScript<ChildReport>("children/sdk-upload.ts", [
        server.baseUrl,
        server.keys.private,
        path,
        String(CONCURRENCY),
        mode,
      ]);
}

export async function benchMemory(ctx: BenchContext): Promise<BenchResult> {
  const server = await ctx.fsServer();
  const { client } = troveClient(server);
  const mib = (bytes: number) => fmt(bytes / MiB, 0);
  const mbps = (report: ChildReport) => fmt(report.size / 1e6 / (report.ms / 1000));

  // (b) first, on a server that has not yet handled large uploads (after a small warm-up).
  const directSize = ctx.quick ? 256 * MiB : GiB;
  const directPath = await ctx.scratch.bytesFile(directSize);
  const warm = await client.upload(await ctx.scratch.bytesFile(MiB), { fileName: "warm.bin" });
  await client.files.delete(warm.file_no);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = readProcMemory(server.pid);
  const sampler = sampleRss(server.pid);
  const direct = await uploadInChild(server, directPath, "direct");
  const { peak, samples } = sampler.stop();
  const after = readProcMemory(server.pid);
  if (direct.size !== directSize) throw new Error(`direct upload stored ${direct.size} bytes`);
  const growth = peak - before.rss;

  // (a) the SDK's multipart upload in a process of its own.
  const sdkSize = ctx.quick ? 512 * MiB : 2 * GiB;
  const sdk = await uploadInChild(server, await ctx.scratch.bytesFile(sdkSize), "multipart");
  if (sdk.size !== sdkSize) throw new Error(`SDK child stored ${sdk.size} bytes`);
  // Reference for (b)'s client: the same form body with Node's fetch and FormData, no SDK.
  const fetchDirect = await uploadInChild(server, directPath, "fetch");

  const childLine = (report: ChildReport) =>
    `${mib(report.maxRss)} MiB peak (VmHWM), ${mib(report.rssBefore)} MiB before the upload began; ` +
    `sampled every 10 ms: V8 heap at most ${mib(report.peak.heapUsed)} MiB, ArrayBuffers at most ` +
    `${mib(report.peak.arrayBuffers)} MiB; ${mbps(report)} MB/s.`;
  return {
    rows: [
      {
        id: "3a",
        figure: `peak RSS of the SDK uploading a ${sdkSize / MiB} MiB file from disk (Node), MiB`,
        trove: mib(sdk.maxRss),
        baseline: "—",
        ratio: "—",
        target: "≤ 200 MiB",
        met: verdict(sdk.maxRss <= 200 * MiB),
      },
      {
        id: "3b",
        figure: `growth of the server's RSS during a ${directSize / MiB} MiB direct upload, MiB`,
        trove: mib(growth),
        baseline: "—",
        ratio: "—",
        target: "≤ 100 MiB",
        met: verdict(growth <= 100 * MiB),
      },
      {
        id: "3c",
        figure: `peak RSS of the SDK's direct upload of a ${directSize / MiB} MiB file (Node) above its RSS before, MiB`,
        trove: mib(direct.maxRss - direct.rssBefore),
        baseline: mib(fetchDirect.maxRss - fetchDirect.rssBefore),
        ratio: "—",
        target: "≤ 200 MiB",
        met: verdict(direct.maxRss - direct.rssBefore <= 200 * MiB),
      },
    ],
    notes: [
      [
        `**3. Memory.** (a) A child process runs only \`createClient(...).upload(path)\` of ${sdkSize / MiB} MiB ` +
          `(multipart, ${CONCURRENCY} parts in flight): ${childLine(sdk)} The peak is VmHWM from /proc/self/status, ` +
          "not `process.resourceUsage().maxRSS`: Linux carries the parent's RSS at fork into the child's maxRSS across exec.",
        `(b) trove-server's VmRSS sampled every 20 ms (${samples} samples) while the SDK, in another process, sends ` +
          `one ${directSize / MiB} MiB \`POST /api/v1/uploads\`: ${mib(before.rss)} MiB before, ${mib(peak)} MiB peak, ` +
          `${mib(after.rss)} MiB after; VmHWM ${mib(before.hwm)} → ${mib(after.hwm)} MiB. ` +
          `That client (the SDK's direct upload: the form body streamed from the file, with its length): ${childLine(direct)} ` +
          `(c)'s baseline, the same body posted with Node's own \`fetch\` + \`FormData\`, no SDK: ${childLine(fetchDirect)}`,
      ].join("\n"),
    ],
  };
}
