/**
 * Bench 4f: the small uploads of bench 4 (the same JPEG, 32 connections) into an existing nested
 * folder (`a/b/c`) beside the same uploads into the root, on one trove-server, alternating in the
 * same run. A folder upload used to cost twice a root upload (a Prisma transaction finding each
 * level, against one statement; issue #37): the ratio is root req/s over folder req/s, with the
 * CPU per upload (server and PostgreSQL) of each, which contention on shared cores does not blur.
 */
import type { BenchContext } from "../support/context.js";
import { cpuMeter } from "../support/cpu-time.js";
import { databaseCpuMeter } from "../support/database-cpu.js";
import { formBody, type LoadResult } from "../support/load.js";
import { profileTroveServer } from "../support/profile-server.js";
import { type BenchResult, fmt, ratioText, verdict } from "../support/report.js";
import { median } from "../support/stats.js";
import { startTroveServer, type TroveServer } from "../support/trove-server.js";
import { phoneUpload, postForm, SMALL_UPLOAD_CONNECTIONS } from "./small-upload-servers.js";

const FOLDER = "a/b/c";
const TARGET = 1.15;

type Cpu = { server: number; postgres: number };

export async function benchFolderSmallUploads(ctx: BenchContext): Promise<BenchResult> {
  const { image, form: rootForm } = await phoneUpload();
  const folderForm = formBody(
    { file_name: "photo.jpg", random_prefix: "true", folder: FOLDER },
    { field: "file", name: "photo.jpg", type: "image/jpeg", bytes: image },
  );
  const databaseUrl = await ctx.databaseUrl();
  const server = await startTroveServer({ databaseUrl });
  // The backends of this server's own database: other work may share the PostgreSQL server.
  const database = await databaseCpuMeter(databaseUrl);
  const duration = ctx.quick ? 3 : 6;
  const rounds = Math.max(2, ctx.runs);
  const root: LoadResult[] = [];
  const folder: LoadResult[] = [];
  const cpu = { root: [] as Cpu[], folder: [] as Cpu[] };
  const load = (target: TroveServer, form: typeof rootForm, seconds: number) =>
    postForm(`${target.baseUrl}/api/v1/uploads`, form, seconds, { "x-api-key": target.keys.public });
  const measured = async (form: typeof rootForm, into: LoadResult[], cpuInto: Cpu[]) => {
    const meter = cpuMeter({ server: server.pid });
    const run = () => load(server, form, duration);
    const { result, seconds } = database ? await database.measure(run) : { result: await run(), seconds: 0 };
    into.push(result);
    const { server: serverSeconds = Number.NaN } = meter.stop();
    cpuInto.push({ server: serverSeconds, postgres: seconds });
  };
  try {
    // The warm-up's first folder upload creates a/b/c: every measured one finds it existing.
    await load(server, folderForm, 2);
    await load(server, rootForm, 2);
    for (let run = 0; run < rounds; run += 1) {
      const order: Array<[typeof rootForm, LoadResult[], Cpu[]]> = [
        [rootForm, root, cpu.root],
        [folderForm, folder, cpu.folder],
      ];
      if (run % 2 === 1) order.reverse();
      for (const [form, into, cpuInto] of order) await measured(form, into, cpuInto);
      ctx.log(
        `  run ${run + 1}: root ${fmt(root[run]?.requestsPerSecond ?? 0, 0)} req/s, ` +
          `folder ${fmt(folder[run]?.requestsPerSecond ?? 0, 0)} req/s`,
      );
    }
  } finally {
    await database?.close();
    await server.stop();
  }

  const rps = (results: LoadResult[]) => median(results.map((r) => r.requestsPerSecond));
  const ratio = rps(root) / rps(folder);
  const perUploadMs = (samples: Cpu[], results: LoadResult[], pick: (c: Cpu) => number) =>
    median(samples.map((c, i) => (pick(c) * 1000) / (results[i]?.requests ?? 1)));
  const cpuText = (samples: Cpu[], results: LoadResult[]) =>
    `${fmt(
      perUploadMs(samples, results, (c) => c.server + c.postgres),
      2,
    )} ms ` +
    `(server ${fmt(
      perUploadMs(samples, results, (c) => c.server),
      2,
    )}, ` +
    `PostgreSQL ${fmt(
      perUploadMs(samples, results, (c) => c.postgres),
      2,
    )})`;
  const describe = (results: LoadResult[]) =>
    results
      .map((r) => `${fmt(r.requestsPerSecond, 0)} (p50 ${r.latencyP50} ms, p99 ${r.latencyP99} ms)`)
      .join(", ");
  const profiles: string[] = [];
  if (ctx.profile) {
    profiles.push(
      await profileTroveServer(
        ctx,
        `- Profile of trove-server under the folder uploads for ${duration} s (\`--cpu-prof\`, unmeasured)`,
        { databaseUrl: await ctx.databaseUrl() },
        {
          warm: async (profiled) => {
            await load(profiled, folderForm, 2);
          },
          work: async (profiled) => {
            await load(profiled, folderForm, duration);
          },
        },
      ),
    );
  }
  return {
    rows: [
      {
        id: "4f",
        figure: `small uploads (the row-4 JPEG, ${SMALL_UPLOAD_CONNECTIONS} concurrent) into an existing folder \`${FOLDER}\`, req/s`,
        trove: fmt(rps(folder), 0),
        baseline:
          `${fmt(rps(root), 0)} (the same uploads into the root, same server, alternating; CPU per upload, ` +
          `server + PostgreSQL: folder ${cpuText(cpu.folder, folder)}, root ${cpuText(cpu.root, root)})`,
        ratio: ratioText(ratio),
        target: `≤ ${TARGET}×`,
        met: verdict(ratio <= TARGET),
      },
    ],
    notes: [
      [
        `**4f. Small uploads into a folder.** The row-4 JPEG (${image.length} B, public key, \`random_prefix=true\`) ` +
          `with \`folder=${FOLDER}\`, against the same form without it, on one trove-server, ${rounds} rounds of ` +
          `${duration} s each in alternating order; database: ${ctx.databaseLabel}. The ratio is root req/s over ` +
          "folder req/s (lower is better). CPU per upload: the server process, and the PostgreSQL backends " +
          "connected to its own database (/proc), so other work on the same PostgreSQL is not counted.",
        `- Folder runs, req/s: ${describe(folder)}.`,
        `- Root runs, req/s: ${describe(root)}.`,
        ...profiles,
      ].join("\n"),
    ],
  };
}
