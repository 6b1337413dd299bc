/**
 * Bench 4: small direct uploads. 100 KiB JPEGs, 32 connections, one prebuilt multipart/form-data
 * body replayed by autocannon against `POST /api/v1/uploads` (public key, random_prefix so names
 * never collide) and against a bare Fastify + @fastify/multipart handler writing to disk. The JPEG
 * carries what a phone's does (GPS, camera, owner), so a public upload's stripping has work to do;
 * row 4c runs the same uploads on a second trove-server where stripping and placeholders are off,
 * so their cost is measured in the same run (issue #34: at most 5%). Row 4 is context: its
 * baseline stores no row. Row 4b's does the same durable work as Trove (the bytes on disk, one row
 * in a `files` table of Trove's own DDL and triggers, in the same PostgreSQL): that is the target.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startListeningScript } from "../support/child-script.js";
import type { BenchContext } from "../support/context.js";
import { commandCpuSeconds, cpuMeter } from "../support/cpu-time.js";
import { databaseCpuMeter } from "../support/database-cpu.js";
import { formBody, type LoadResult } from "../support/load.js";
import { timeProcessImage } from "../support/media-pipeline.js";
import { profileTroveServer } from "../support/profile-server.js";
import { type BenchResult, fmt, ratioText, verdict } from "../support/report.js";
import { KiB, median } from "../support/stats.js";
import { startTroveServer } from "../support/trove-server.js";
import { phoneUpload, postForm, SMALL_UPLOAD_CONNECTIONS, startPlainServer } from "./small-upload-servers.js";

export async function benchSmallUploads(ctx: BenchContext): Promise<BenchResult> {
  const { image, form } = await phoneUpload();
  // Two servers of their own, identical but for the two features, each on a database of its own;
  // their sweeps poll every second, so the placeholder work of a run's uploads falls inside the
  // run (at the default 5 s a 3 s run may or may not contain a sweep, and the ratio with it).
  const sweepEnv = { TROVE_JOB_POLL_INTERVAL_MS: "1000" };
  const troveDb = await ctx.databaseUrl();
  const server = await startTroveServer({ databaseUrl: troveDb, env: sweepEnv });
  const bareDir = await mkdtemp(join(tmpdir(), "trove-bench-fastify-"));
  const bare = await startListeningScript("baselines/bare-fastify-upload.ts", [bareDir]);
  // 4b's baseline: a database of its own that a trove-server migrated and seeded (so `files` has
  // Trove's DDL, indexes and triggers), then stopped; PostgreSQL only.
  const rowDb = await ctx.databaseUrl();
  let rowBare: Awaited<ReturnType<typeof startListeningScript>> | undefined;
  if (troveDb && rowDb) {
    await (await startTroveServer({ databaseUrl: rowDb })).stop();
    rowBare = await startListeningScript("baselines/bare-fastify-upload-row.ts", [bareDir, rowDb]);
  }
  const troveBackends = await databaseCpuMeter(troveDb);
  const rowBackends = rowBare ? await databaseCpuMeter(rowDb) : undefined;
  const duration = ctx.quick ? 3 : 6;
  // At least two rounds, the two Trove servers in alternating order, so neither always runs
  // while the other's last sweep finishes.
  const rounds = Math.max(2, ctx.runs);
  const trove: LoadResult[] = [];
  const baseline: LoadResult[] = [];
  const plain: LoadResult[] = [];
  const withRow: LoadResult[] = [];
  const cpu = {
    withRow: [] as Array<Record<string, number>>,
    trove: [] as Array<Record<string, number>>,
    bare: [] as Array<Record<string, number>>,
    plain: [] as Array<Record<string, number>>,
  };
  const plainServer = await startPlainServer(await ctx.databaseUrl(), sweepEnv);
  const troveLoad = (seconds: number) =>
    postForm(`${server.baseUrl}/api/v1/uploads`, form, seconds, { "x-api-key": server.keys.public });
  const bareLoad = (seconds: number) => postForm(`${bare.baseUrl}/upload`, form, seconds);
  const rowLoad = (seconds: number) => postForm(`${rowBare?.baseUrl}/upload`, form, seconds);
  const plainLoad = (seconds: number) =>
    postForm(`${plainServer.baseUrl}/api/v1/uploads`, form, seconds, {
      "x-api-key": plainServer.keys.public,
    });
  /**
   * One measured run, with the CPU of the server, of every PostgreSQL backend during it, and
   * (`backends`) of those connected to the server's own database.
   */
  const measured = async (
    pid: number,
    load: () => Promise<LoadResult>,
    into: LoadResult[],
    cpuInto: Array<Record<string, number>>,
    backends?: Awaited<ReturnType<typeof databaseCpuMeter>>,
  ) => {
    const meter = cpuMeter({ server: pid });
    const postgresBefore = commandCpuSeconds("postgres");
    const { result, seconds } = backends
      ? await backends.measure(load)
      : { result: await load(), seconds: Number.NaN };
    into.push(result);
    cpuInto.push({ ...meter.stop(), postgres: commandCpuSeconds("postgres") - postgresBefore, own: seconds });
  };
  const runTrove = () => measured(server.pid, () => troveLoad(duration), trove, cpu.trove, troveBackends);
  const runPlain = () => measured(plainServer.pid, () => plainLoad(duration), plain, cpu.plain);
  try {
    // Warm-up long enough for both Trove servers' hot paths to be compiled before anything counts.
    await troveLoad(2);
    await bareLoad(1);
    await plainLoad(2);
    if (rowBare) await rowLoad(1);
    for (let run = 0; run < rounds; run += 1) {
      if (run % 2 === 0) {
        await runTrove();
        await runPlain();
      } else {
        await runPlain();
        await runTrove();
      }
      if (run < ctx.runs) await measured(bare.child.pid, () => bareLoad(duration), baseline, cpu.bare);
      if (rowBare) {
        await measured(rowBare.child.pid, () => rowLoad(duration), withRow, cpu.withRow, rowBackends);
      }
      ctx.log(
        `  run ${run + 1}: Trove ${fmt(trove[run]?.requestsPerSecond ?? 0, 0)} req/s, ` +
          `Trove without stripping and placeholders ${fmt(plain[run]?.requestsPerSecond ?? 0, 0)} req/s` +
          (run < ctx.runs ? `, bare ${fmt(baseline[run]?.requestsPerSecond ?? 0, 0)} req/s` : "") +
          (rowBare ? `, bare with its row ${fmt(withRow[run]?.requestsPerSecond ?? 0, 0)} req/s` : ""),
      );
    }
  } finally {
    await troveBackends?.close();
    await rowBackends?.close();
    await rowBare?.child.stop();
    await bare.child.stop();
    await plainServer.stop();
    await rm(bareDir, { recursive: true, force: true });
  }
  try {
    return await report();
  } finally {
    await server.stop();
  }

  async function report(): Promise<BenchResult> {
    const rps = (results: LoadResult[]) => median(results.map((r) => r.requestsPerSecond));
    const ratio = rps(trove) / rps(baseline);
    const rowRatio = rps(trove) / rps(withRow);
    const keptRatio = rps(trove) / rps(plain);
    const profiles: string[] = [];
    // Row 4b's target, the one that compares like with like (row 4 is context).
    if (rowBare && rowRatio < 0.7 && ctx.profile) {
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
      const rowMs = median(
        cpu.withRow.map((c, i) => ((c.server ?? Number.NaN) * 1000) / (withRow[i]?.requests ?? 1)),
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
          "profile below shows how they share it: no single part dominates. 0.7× of the baseline that also " +
          `stores its row (4b, ${fmt(rowMs, 1)} ms of server CPU) would need the whole request in about ` +
          `${fmt(rowMs / 0.7, 1)} ms of server CPU.`,
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
    // What the two features cost in work, which contention on 2 shared cores does not blur as it
    // blurs throughput.
    const cpuPerUpload = (samples: Array<Record<string, number>>, results: LoadResult[]) =>
      fmt(
        median(
          samples.map(
            (s, i) => (((s.server ?? Number.NaN) + (s.postgres ?? 0)) * 1000) / (results[i]?.requests ?? 1),
          ),
        ),
        2,
      );
    /** Server + the backends of its own database, ms per request, and the split. */
    const ownCpu = (samples: Array<Record<string, number>>, results: LoadResult[]) => {
      const per = (pick: (s: Record<string, number>) => number) =>
        median(samples.map((s, i) => (pick(s) * 1000) / (results[i]?.requests ?? 1)));
      const server = per((s) => s.server ?? Number.NaN);
      const postgres = per((s) => s.own ?? Number.NaN);
      return `${fmt(server + postgres, 2)} ms (server ${fmt(server, 2)}, PostgreSQL ${fmt(postgres, 2)})`;
    };
    const describe = (results: LoadResult[]) =>
      results
        .map((r) => `${fmt(r.requestsPerSecond, 0)} (p50 ${r.latencyP50} ms, p99 ${r.latencyP99} ms)`)
        .join(", ");
    return {
      rows: [
        {
          id: "4",
          figure: `small direct uploads (${fmt(image.length / KiB, 0)} KiB JPEG, ${SMALL_UPLOAD_CONNECTIONS} concurrent), req/s`,
          trove: fmt(rps(trove), 0),
          baseline: `${fmt(rps(baseline), 0)} (bare Fastify + @fastify/multipart → disk)`,
          ratio: ratioText(ratio),
          // Context: the baseline stores no row, so no ratio to it is a fair target (row 4b is).
          target: "—",
          met: "n/a",
        },
        rowBare
          ? {
              id: "4b",
              figure: "the same uploads against a baseline that also stores the row, req/s",
              trove: fmt(rps(trove), 0),
              baseline:
                `${fmt(rps(withRow), 0)} (bare Fastify + @fastify/multipart → disk + one prepared INSERT into \`files\` ` +
                `with Trove's DDL and triggers, same PostgreSQL; CPU per request, server + its database's backends: ` +
                `Trove ${ownCpu(cpu.trove, trove)}, baseline ${ownCpu(cpu.withRow, withRow)})`,
              ratio: ratioText(rowRatio),
              target: "≥ 0.7×",
              met: verdict(rowRatio >= 0.7),
            }
          : {
              id: "4b",
              figure: "the same uploads against a baseline that also stores the row, req/s",
              trove: fmt(rps(trove), 0),
              baseline: "needs PostgreSQL (TROVE_BENCH_DATABASE_URL)",
              ratio: "—",
              target: "≥ 0.7×",
              met: "n/a",
            },
        {
          id: "4c",
          figure: "the same uploads with metadata stripping and placeholders (default) vs without, req/s",
          trove: fmt(rps(trove), 0),
          baseline:
            `${fmt(rps(plain), 0)} (trove-server, workspace \`embedded_metadata: keep\`, \`TROVE_PLACEHOLDERS=false\`; ` +
            `CPU per upload, server + PostgreSQL: ${cpuPerUpload(cpu.trove, trove)} ms with both, ${cpuPerUpload(cpu.plain, plain)} ms without)`,
          ratio: ratioText(keptRatio),
          target: "≥ 0.95×",
          met: verdict(keptRatio >= 0.95),
        },
      ],
      notes: [
        [
          `**4. Small direct uploads.** A ${image.length} B, 1024×768 JPEG in one prebuilt form body ` +
            `(\`file_name\`, \`random_prefix=true\`, \`file\`), replayed by autocannon (in the bench process, ` +
            `sharing the 2 cores) with ${SMALL_UPLOAD_CONNECTIONS} connections for ${duration} s per run; database: ${ctx.databaseLabel}.`,
          `- Trove runs, req/s: ${describe(trove)}; server CPU ${perRequestMs(cpu.trove, trove, "server")} ms/request, ` +
            `load generator ${perRequestMs(cpu.trove, trove, "client")} ms/request` +
            (!ctx.databaseLabel.startsWith("PostgreSQL")
              ? ""
              : `, PostgreSQL (every backend on the machine) ${perRequestMs(cpu.trove, trove, "postgres")} ms/request`),
          `- Baseline runs, req/s: ${describe(baseline)}; server CPU ${perRequestMs(cpu.bare, baseline, "server")} ms/request, ` +
            `load generator ${perRequestMs(cpu.bare, baseline, "client")} ms/request`,
          `- 4c: the same uploads to a second trove-server whose workspace keeps embedded metadata and which computes ` +
            `no placeholders, req/s: ${describe(plain)}; server CPU ${perRequestMs(cpu.plain, plain, "server")} ms/request` +
            (!ctx.databaseLabel.startsWith("PostgreSQL")
              ? ""
              : `, PostgreSQL ${perRequestMs(cpu.plain, plain, "postgres")} ms/request`) +
            `. The two Trove servers ran ${rounds} rounds in alternating order, each on a database of its own, their ` +
            "sweeps polling every second. The default server strips the JPEG's EXIF (GPS, camera, owner) before " +
            "storing it and computes each upload's placeholder in its background sweep, whose CPU (and PostgreSQL's " +
            "for its update) shares the cores with the load and is counted in its run.",
          ...(rowBare
            ? [
                `- 4b: the same uploads to a bare Fastify + @fastify/multipart handler that streams the file to disk ` +
                  "while hashing it (SHA-256) and inserts one row with a prepared statement into `files` of a database " +
                  "of its own that a trove-server migrated and seeded (then stopped): the same columns, indexes and " +
                  "triggers as Trove's, i.e. the folder/workspace count trigger and also the usage and quota " +
                  "triggers, since Trove's insert fires them too (`src/baselines/bare-fastify-upload-row.ts`), " +
                  `req/s: ${describe(withRow)}; CPU per request, server + PostgreSQL backends of its database: ` +
                  `${ownCpu(cpu.withRow, withRow)}; Trove's, measured the same way: ${ownCpu(cpu.trove, trove)}. ` +
                  "Same PostgreSQL, run right after the bare handler in each round.",
              ]
            : []),
          ...profiles,
        ].join("\n"),
      ],
    };
  }
}
