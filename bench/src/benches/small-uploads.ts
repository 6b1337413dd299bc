/**
 * Bench 4: small direct uploads. 100 KiB JPEGs, 32 connections, one prebuilt multipart/form-data
 * body replayed by autocannon against `POST /api/v1/uploads` (public key, random_prefix so names
 * never collide) and against a bare Fastify + @fastify/multipart handler writing to disk. The JPEG
 * carries what a phone's does (GPS, camera, owner), so a public upload's stripping has work to do;
 * row 4c runs the same uploads on a second trove-server where stripping and placeholders are off,
 * so their cost is measured in the same run (issue #34: at most 5%).
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { startListeningScript } from "../support/child-script.js";
import type { BenchContext } from "../support/context.js";
import { commandCpuSeconds, cpuMeter } from "../support/cpu-time.js";
import { formBody, type LoadResult, runLoad } from "../support/load.js";
import { timeProcessImage } from "../support/media-pipeline.js";
import { profileTroveServer } from "../support/profile-server.js";
import { type BenchResult, fmt, ratioText, verdict } from "../support/report.js";
import { KiB, median } from "../support/stats.js";
import { makeJpeg } from "../support/test-files.js";
import { startTroveServer, type TroveServer } from "../support/trove-server.js";

const CONNECTIONS = 32;

export async function benchSmallUploads(ctx: BenchContext): Promise<BenchResult> {
  const image = await withPhoneMetadata(await makeJpeg(1024, 768, 100 * KiB));
  const form = formBody(
    { file_name: "photo.jpg", random_prefix: "true" },
    { field: "file", name: "photo.jpg", type: "image/jpeg", bytes: image },
  );
  const server = await ctx.fsServer();
  const bareDir = await mkdtemp(join(tmpdir(), "trove-bench-fastify-"));
  const bare = await startListeningScript("baselines/bare-fastify-upload.ts", [bareDir]);
  const duration = ctx.quick ? 3 : 6;
  const trove: LoadResult[] = [];
  const baseline: LoadResult[] = [];
  const plain: LoadResult[] = [];
  const cpu = { trove: [] as Array<Record<string, number>>, bare: [] as Array<Record<string, number>> };
  const plainServer = await startPlainServer(await ctx.databaseUrl());
  const troveLoad = (seconds: number) =>
    postForm(`${server.baseUrl}/api/v1/uploads`, form, seconds, { "x-api-key": server.keys.public });
  const bareLoad = (seconds: number) => postForm(`${bare.baseUrl}/upload`, form, seconds);
  const plainLoad = (seconds: number) =>
    postForm(`${plainServer.baseUrl}/api/v1/uploads`, form, seconds, {
      "x-api-key": plainServer.keys.public,
    });
  try {
    await troveLoad(1);
    await bareLoad(1);
    await plainLoad(1);
    for (let run = 0; run < ctx.runs; run += 1) {
      let meter = cpuMeter({ server: server.pid });
      const postgresBefore = commandCpuSeconds("postgres");
      trove.push(await troveLoad(duration));
      cpu.trove.push({ ...meter.stop(), postgres: commandCpuSeconds("postgres") - postgresBefore });
      meter = cpuMeter({ server: bare.child.pid });
      baseline.push(await bareLoad(duration));
      cpu.bare.push(meter.stop());
      plain.push(await plainLoad(duration));
      ctx.log(
        `  run ${run + 1}: Trove ${fmt(trove[run]?.requestsPerSecond ?? 0, 0)} req/s, bare ${fmt(baseline[run]?.requestsPerSecond ?? 0, 0)} req/s, ` +
          `Trove without stripping and placeholders ${fmt(plain[run]?.requestsPerSecond ?? 0, 0)} req/s`,
      );
    }
  } finally {
    await bare.child.stop();
    await plainServer.stop();
    await rm(bareDir, { recursive: true, force: true });
  }
  const rps = (results: LoadResult[]) => median(results.map((r) => r.requestsPerSecond));
  const ratio = rps(trove) / rps(baseline);
  const keptRatio = rps(trove) / rps(plain);
  const profiles: string[] = [];
  if (ratio < 0.5 && ctx.profile) {
    // Where the time goes: the same upload as bytes that are not an image (no header read), and
    // Trove's image work alone, in this process.
    const bytes = formBody(
      { file_name: "photo.bin", random_prefix: "true" },
      {
        field: "file",
        name: "photo.bin",
        type: "application/octet-stream",
        bytes: randomBytes(image.length),
      },
    );
    const plain = await postForm(`${server.baseUrl}/api/v1/uploads`, bytes, duration, {
      "x-api-key": server.keys.public,
    });
    const pipeline: number[] = [];
    for (let i = 0; i < 20; i += 1) pipeline.push(await timeProcessImage(image));
    const serverMs = median(
      cpu.trove.map((c, i) => ((c.server ?? Number.NaN) * 1000) / (trove[i]?.requests ?? 1)),
    );
    const bareMs = median(
      cpu.bare.map((c, i) => ((c.server ?? Number.NaN) * 1000) / (baseline[i]?.requests ?? 1)),
    );
    profiles.push(
      `- **What limits it: per-request CPU in trove-server.** It spends ${fmt(serverMs, 1)} ms of CPU per upload ` +
        `against the bare handler's ${fmt(bareMs, 1)} ms; with client and servers sharing 2 cores, CPU per request ` +
        `bounds the ratio near ${fmt(bareMs / serverMs, 2)}× (measured ${fmt(ratio, 2)}×). An upload no longer ` +
        "decodes the image, and its header (width, height, format, orientation) is read from the bytes by Trove's " +
        "own parsers, not libvips (the split below: the JPEG and random bytes now cost the same). The 256 px " +
        "thumbnail is a delivery-time variant rendered on its first request. Its database work is one raw, " +
        "prepared statement, an `INSERT ... ON CONFLICT DO NOTHING` that also answers the duplicate check and " +
        "whether a webhook endpoint wants the upload (the key lookup is cached for a second). The file is held in " +
        "memory while it arrives and written once, in place under its new key (no temporary file and rename). " +
        "What remains beyond the bare handler: authentication and the rate limiter, the block-tree SHA-256 of " +
        "the content, content sniffing, a directory per object, the insert and its trigger-kept counts (in " +
        "PostgreSQL's own CPU, which shares the cores), the response schema and the upload response; the " +
        "profile below shows how they share it: no single part dominates. 0.5× would need the whole request in " +
        `about ${fmt(bareMs * 2, 1)} ms of CPU.`,
    );
    profiles.push(
      `- Split: the same request with ${image.length} random bytes instead of the JPEG (no header read): ` +
        `${fmt(plain.requestsPerSecond, 0)} req/s (p50 ${plain.latencyP50} ms). Trove's image work alone ` +
        `(\`processImage\`: sniffing and the header), in the bench process, one at a time: ` +
        `${fmt(median(pipeline), 1)} ms median.`,
    );
    const load = (url: string, key: string) =>
      postForm(`${url}/api/v1/uploads`, form, duration, { "x-api-key": key });
    profiles.push(
      await profileTroveServer(
        ctx,
        `- Profile of trove-server under the same load for ${duration} s (\`--cpu-prof\`, unmeasured)`,
        { databaseUrl: await ctx.databaseUrl() },
        {
          warm: async (profiled) => {
            await load(profiled.baseUrl, profiled.keys.public);
          },
          work: async (profiled) => {
            await load(profiled.baseUrl, profiled.keys.public);
          },
        },
      ),
    );
  }
  const perRequestMs = (samples: Array<Record<string, number>>, results: LoadResult[], name: string) =>
    fmt(median(samples.map((s, i) => ((s[name] ?? Number.NaN) * 1000) / (results[i]?.requests ?? 1))), 2);
  const describe = (results: LoadResult[]) =>
    results
      .map((r) => `${fmt(r.requestsPerSecond, 0)} (p50 ${r.latencyP50} ms, p99 ${r.latencyP99} ms)`)
      .join(", ");
  return {
    rows: [
      {
        id: "4",
        figure: `small direct uploads (${fmt(image.length / KiB, 0)} KiB JPEG, ${CONNECTIONS} concurrent), req/s`,
        trove: fmt(rps(trove), 0),
        baseline: `${fmt(rps(baseline), 0)} (bare Fastify + @fastify/multipart → disk)`,
        ratio: ratioText(ratio),
        target: "≥ 0.5×",
        met: verdict(ratio >= 0.5),
      },
      {
        id: "4c",
        figure: "the same uploads with metadata stripping and placeholders (default) vs without, req/s",
        trove: fmt(rps(trove), 0),
        baseline: `${fmt(rps(plain), 0)} (trove-server, workspace \`embedded_metadata: keep\`, \`TROVE_PLACEHOLDERS=false\`)`,
        ratio: ratioText(keptRatio),
        target: "≥ 0.95×",
        met: verdict(keptRatio >= 0.95),
      },
    ],
    notes: [
      [
        `**4. Small direct uploads.** A ${image.length} B, 1024×768 JPEG in one prebuilt form body ` +
          `(\`file_name\`, \`random_prefix=true\`, \`file\`), replayed by autocannon (in the bench process, ` +
          `sharing the 2 cores) with ${CONNECTIONS} connections for ${duration} s per run; database: ${ctx.databaseLabel}.`,
        `- Trove runs, req/s: ${describe(trove)}; server CPU ${perRequestMs(cpu.trove, trove, "server")} ms/request, ` +
          `load generator ${perRequestMs(cpu.trove, trove, "client")} ms/request` +
          (!ctx.databaseLabel.startsWith("PostgreSQL")
            ? ""
            : `, PostgreSQL (every backend on the machine) ${perRequestMs(cpu.trove, trove, "postgres")} ms/request`),
        `- Baseline runs, req/s: ${describe(baseline)}; server CPU ${perRequestMs(cpu.bare, baseline, "server")} ms/request, ` +
          `load generator ${perRequestMs(cpu.bare, baseline, "client")} ms/request`,
        `- 4c: the same uploads to a second trove-server whose workspace keeps embedded metadata and which computes ` +
          `no placeholders, req/s: ${describe(plain)}. The default server strips the JPEG's EXIF (GPS, camera, owner) ` +
          "before storing it and computes each upload's placeholder in its background sweep, whose CPU shares the " +
          "cores with the load.",
        ...profiles,
      ].join("\n"),
    ],
  };
}

/** `seconds` of POSTs of one form body from CONNECTIONS connections. */
function postForm(
  url: string,
  form: { body: Buffer; contentType: string },
  seconds: number,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  return runLoad({
    url,
    method: "POST",
    headers: { "content-type": form.contentType, ...headers },
    body: form.body,
    connections: CONNECTIONS,
    durationSeconds: seconds,
  });
}

/**
 * The JPEG as a phone would send it: an EXIF segment with location, camera and owner spliced in
 * after its start marker, its image data untouched. sharp writes the segment (into a 1 px JPEG);
 * re-encoding the bench image itself would change its size.
 */
async function withPhoneMetadata(jpeg: Buffer): Promise<Buffer> {
  const carrier = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#808080" } })
    .withExif({
      IFD0: { Make: "Bench", Model: "Phone 1", Artist: "A. Person", Copyright: "A. Person" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "51/1 30/1 0/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "0/1 7/1 0/1",
      },
    })
    .jpeg()
    .toBuffer();
  // Segments after SOI (FF D8): marker (2 bytes) + big-endian length (which counts itself).
  let at = 2;
  while (carrier[at] === 0xff && carrier[at + 1] !== 0xe1) at += 2 + carrier.readUInt16BE(at + 2);
  if (carrier[at + 1] !== 0xe1) throw new Error("sharp wrote no EXIF segment");
  const exif = carrier.subarray(at, at + 2 + carrier.readUInt16BE(at + 2));
  return Buffer.concat([jpeg.subarray(0, 2), exif, jpeg.subarray(2)]);
}

/** A trove-server whose every workspace keeps embedded metadata and which computes no placeholders. */
async function startPlainServer(databaseUrl: string | undefined): Promise<TroveServer> {
  const adminToken = `bench-admin-${randomBytes(16).toString("hex")}`;
  const server = await startTroveServer({
    databaseUrl,
    env: { TROVE_PLACEHOLDERS: "false", TROVE_ADMIN_TOKEN: adminToken },
  });
  const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
  const listed = await fetch(`${server.baseUrl}/admin/v1/workspaces`, { headers: admin });
  const { workspaces } = (await listed.json()) as { workspaces: Array<{ workspace_no: string }> };
  for (const { workspace_no } of workspaces) {
    const patched = await fetch(`${server.baseUrl}/admin/v1/workspaces/${workspace_no}`, {
      method: "PATCH",
      headers: admin,
      body: JSON.stringify({ embedded_metadata: "keep" }),
    });
    if (!patched.ok)
      throw new Error(`PATCH workspace ${workspace_no}: ${patched.status} ${await patched.text()}`);
  }
  return server;
}
