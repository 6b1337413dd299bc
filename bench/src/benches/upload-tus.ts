/**
 * Bench 14: a large tus upload with tus-js-client (unchanged, in Node, from the file) to
 * `/api/v1/tus` on the fs server, with its default chunking (one PATCH for the whole file) and
 * with 32 MiB chunks, beside the same bytes through the SDK's multipart (`client.upload(path)`,
 * its defaults), in the same run, alternating. Each upload is deleted after it is timed.
 */
import { createReadStream } from "node:fs";
import * as tus from "tus-js-client";
import type { BenchContext } from "../support/context.js";
import { type BenchResult, fmt, ratioText } from "../support/report.js";
import { GiB, MiB, mbPerSecond, median } from "../support/stats.js";
import { troveClient } from "../support/trove-client.js";
import type { TroveServer } from "../support/trove-server.js";

/** Uploads the file over tus; resolves the file_no from `Trove-File-No`. */
function tusUpload(server: TroveServer, path: string, size: number, chunkSize?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let fileNo: string | undefined;
    const upload = new tus.Upload(createReadStream(path), {
      endpoint: `${server.baseUrl}/api/v1/tus`,
      headers: { "x-api-key": server.keys.private },
      metadata: { filename: "tus.bin" },
      uploadSize: size,
      ...(chunkSize === undefined ? {} : { chunkSize }),
      storeFingerprintForResuming: false,
      retryDelays: [],
      onAfterResponse: (_request, response) => {
        fileNo ??= response.getHeader("Trove-File-No") || undefined;
      },
      onSuccess: () => (fileNo ? resolve(fileNo) : reject(new Error("no Trove-File-No header"))),
      onError: reject,
    });
    upload.start();
  });
}

export async function benchUploadTus(ctx: BenchContext): Promise<BenchResult> {
  const size = ctx.quick ? 64 * MiB : GiB;
  const path = await ctx.scratch.bytesFile(size);
  const server = await ctx.fsServer();
  const { client } = troveClient(server);
  const times = { sdk: [] as number[], tusDefault: [] as number[], tus32: [] as number[] };

  const timed = async (into: number[], run: () => Promise<string>) => {
    const started = performance.now();
    const fileNo = await run();
    into.push(performance.now() - started);
    await client.files.delete(fileNo);
  };

  // One small unmeasured upload each way (JIT, lazy imports).
  const warmPath = await ctx.scratch.bytesFile(8 * MiB);
  await timed([], () => tusUpload(server, warmPath, 8 * MiB));
  await timed([], async () => (await client.upload(warmPath, { fileName: "warm.bin" })).file_no);

  for (let run = 0; run < ctx.runs; run += 1) {
    await timed(times.sdk, async () => (await client.upload(path, { fileName: `sdk-${run}.bin` })).file_no);
    await timed(times.tusDefault, () => tusUpload(server, path, size));
    await timed(times.tus32, () => tusUpload(server, path, size, 32 * MiB));
    ctx.log(
      `  run ${run + 1}: SDK ${fmt(mbPerSecond(size, times.sdk[run] as number))} MB/s, tus ${fmt(mbPerSecond(size, times.tusDefault[run] as number))} MB/s, tus 32 MiB chunks ${fmt(mbPerSecond(size, times.tus32[run] as number))} MB/s`,
    );
  }

  const sdk = mbPerSecond(size, median(times.sdk));
  const row = (id: string, label: string, samples: number[]) => {
    const mbps = mbPerSecond(size, median(samples));
    return {
      id,
      figure: `tus upload of ${size / MiB} MiB with tus-js-client, ${label} → fs, MB/s`,
      trove: fmt(mbps),
      baseline: `${fmt(sdk)} (the SDK's multipart, its defaults)`,
      ratio: ratioText(mbps / sdk),
      target: "— (reported)",
      met: "n/a" as const,
    };
  };
  return {
    rows: [
      row("14a", "default chunking (one PATCH)", times.tusDefault),
      row("14b", "32 MiB chunks", times.tus32),
    ],
    notes: [
      [
        `**14. tus beside multipart.** ${size / MiB} MiB of incompressible bytes from a file in the page cache, ` +
          "tus-js-client reading the file (`fs.createReadStream`), private key, then the same file through " +
          `\`client.upload(path)\`. ${ctx.runs} run(s) of each, alternating.`,
        `- SDK (MB/s): ${times.sdk.map((ms) => fmt(mbPerSecond(size, ms))).join(", ")}`,
        `- tus, default chunking (MB/s): ${times.tusDefault.map((ms) => fmt(mbPerSecond(size, ms))).join(", ")}`,
        `- tus, 32 MiB chunks (MB/s): ${times.tus32.map((ms) => fmt(mbPerSecond(size, ms))).join(", ")}`,
      ].join("\n"),
    ],
  };
}
