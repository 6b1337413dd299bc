/**
 * Bench 8: delivery from a source. A 12 MP JPEG in an s3 source (s3rver on loopback) against the
 * same bytes stored in Trove, both through the delivery host of one server:
 * (a) first delivery of `w_800`: the variant is not cached; for the source the original is not
 *     either (Trove reads it from the origin, stores its copy, then renders); wall time of one GET,
 *     each run on a fresh object;
 * (b) delivery of the cached `w_800` variant: mean latency under autocannon, 8 connections.
 */
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { BenchContext } from "../support/context.js";
import { type LoadResult, runLoad } from "../support/load.js";
import { type BenchResult, fmt, ratioText, verdict } from "../support/report.js";
import { startS3rver } from "../support/s3rver.js";
import { median } from "../support/stats.js";
import { makeJpeg } from "../support/test-files.js";
import { troveClient } from "../support/trove-client.js";
import { startTroveServer } from "../support/trove-server.js";

const CONNECTIONS = 8;

async function timedGet(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return performance.now() - started;
}

export async function benchSourceDelivery(ctx: BenchContext): Promise<BenchResult> {
  const s3 = await startS3rver();
  // Its own server: reading s3rver on 127.0.0.1 needs the loopback range trusted.
  const server = await startTroveServer({
    databaseUrl: await ctx.databaseUrl(),
    env: { TROVE_TRUSTED_RANGES: "127.0.0.0/8" },
  });
  try {
    const { client } = troveClient(server);
    const photo = await makeJpeg(4000, 3000);
    const s3Client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKey, secretAccessKey: s3.secretKey },
    });
    const runs = ctx.quick ? 2 : 7;
    for (let i = 0; i <= runs; i += 1) {
      await s3Client.send(
        new PutObjectCommand({
          Bucket: s3.bucket,
          Key: `photos/${i}.jpg`,
          Body: photo,
          ContentType: "image/jpeg",
        }),
      );
    }
    await client.sources.create({
      name: "bucket",
      type: "s3",
      configuration: {
        region: s3.region,
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        access_key: s3.accessKey,
        secret_key: s3.secretKey,
      },
    });
    const stored = [];
    for (let i = 0; i <= runs; i += 1) {
      stored.push(await client.upload(new Uint8Array(photo), { fileName: `stored-${i}.jpg` }));
    }
    const storedUrls = stored.map((file) => client.url(file, "w_800"));
    const storedUrl = (i: number) => storedUrls[i] ?? "";
    const workspaceNo = new URL(stored[0]?.url ?? "").pathname.split("/")[2] ?? "";
    const sourceUrl = (i: number) =>
      client.url({ origin: "bucket", path: `photos/${i}.jpg`, workspace_no: workspaceNo }, "w_800");

    // (a) first delivery; object 0 of each warms the paths, unmeasured.
    await timedGet(sourceUrl(0));
    await timedGet(storedUrl(0));
    const fromSource: number[] = [];
    const fromStored: number[] = [];
    for (let i = 1; i <= runs; i += 1) {
      fromSource.push(await timedGet(sourceUrl(i)));
      fromStored.push(await timedGet(storedUrl(i)));
    }
    const firstRatio = median(fromSource) / median(fromStored);

    // (b) cached variants under load.
    const cachedSource = sourceUrl(1);
    const cachedStored = storedUrl(1);
    const seconds = ctx.quick ? 2 : 4;
    const load = (url: string) => runLoad({ url, connections: CONNECTIONS, durationSeconds: seconds });
    await load(cachedSource);
    await load(cachedStored);
    const source: LoadResult[] = [];
    const plain: LoadResult[] = [];
    for (let run = 0; run < ctx.runs; run += 1) {
      source.push(await load(cachedSource));
      plain.push(await load(cachedStored));
    }
    const meanLatency = (results: LoadResult[]) => median(results.map((r) => r.latencyMean));
    const cachedRatio = meanLatency(source) / meanLatency(plain);
    const rps = (results: LoadResult[]) => results.map((r) => fmt(r.requestsPerSecond, 0)).join(", ");
    return {
      rows: [
        {
          id: "8a",
          figure: "first delivery of `w_800` of a 12 MP JPEG from an s3 source (s3rver), ms",
          trove: fmt(median(fromSource), 0),
          baseline: `${fmt(median(fromStored), 0)} (same bytes stored in Trove, first render)`,
          ratio: ratioText(firstRatio),
          target: "≤ 1.5×",
          met: verdict(firstRatio <= 1.5),
        },
        {
          id: "8b",
          figure: "delivery of the cached `w_800` variant from an s3 source, mean latency ms",
          trove: fmt(meanLatency(source), 2),
          baseline: `${fmt(meanLatency(plain), 2)} (same variant of a stored file)`,
          ratio: ratioText(cachedRatio),
          target: "≤ 1.2×",
          met: verdict(cachedRatio <= 1.2),
        },
      ],
      notes: [
        [
          `**8. Delivery from a source.** A generated 4000×3000 JPEG (${photo.length} B) put ${runs + 1} times in s3rver ` +
            "and uploaded as many times to Trove; one server (TROVE_TRUSTED_RANGES=127.0.0.0/8 so it may read s3rver). " +
            `(a) one GET of \`w_800\` per fresh object, alternating, ${runs} runs after one warm-up each: source ` +
            `${fromSource.map((ms) => fmt(ms, 0)).join(", ")} ms (read from s3rver, copy stored, SHA-256, sniff, render); ` +
            `stored ${fromStored.map((ms) => fmt(ms, 0)).join(", ")} ms (render only).`,
          `(b) autocannon, ${CONNECTIONS} connections, ${seconds} s per run, alternating. Source req/s: ${rps(source)}; ` +
            `stored req/s: ${rps(plain)}. A cached source variant costs one more query than a stored file's (the source row, ` +
            "read per request so that a PATCH or a deactivation applies at once) and the origin copy's row.",
        ].join("\n"),
      ],
    };
  } finally {
    await server.stop();
    await s3.stop();
  }
}
