/**
 * Bench 16: minting signed URLs (`POST /api/v1/files/{fileNo}/signed-url`, a private key) for
 * random files of a workspace of 10,000 (quick: 2,000) on PostgreSQL, from 8 and from 1
 * concurrent clients (autocannon), beside a bare Fastify handler that compares one header, looks
 * the file up with one prepared statement on `pg` and signs its path with the same HMAC scheme
 * and key (bench/src/baselines/bare-signed-url-server.ts), alternating run by run. Both sides'
 * URLs for one file are checked equal before the load. CPU per mint: the server's process and
 * the PostgreSQL backends of the bench's database (from /proc) over each run.
 *
 * The issue's peer, Supabase Storage, cannot run here: its 0.69 ms of CPU per URL is quoted from
 * the issue, not measured.
 */
import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { startListeningScript } from "../support/child-script.js";
import type { BenchContext } from "../support/context.js";
import { cpuMeter } from "../support/cpu-time.js";
import { databaseCpuMeter } from "../support/database-cpu.js";
import { type LoadResult, runLoad } from "../support/load.js";
import { profileBaselineScript, profileTroveServer } from "../support/profile-server.js";
import { type BenchResult, fmt, type Row, ratioText, verdict } from "../support/report.js";
import { median } from "../support/stats.js";
import { newKeys, startTroveServer } from "../support/trove-server.js";

/** The issue's figure for Supabase Storage on the same machine: CPU ms per URL (quoted). */
const PEER_CPU_MS_PER_URL = 0.69;

const SEED_FILES_SQL = `
INSERT INTO files (id, workspace_id, name, path, storage_key, size, mime_type, format, extension,
                   hash, upload_source, is_private, updated_at)
SELECT gen_random_uuid(), $1::uuid, 'photo-' || i || '.jpg', 'photos/photo-' || i || '.jpg',
       $1 || '/' || gen_random_uuid() || '/photo-' || i || '.jpg', 100000, 'image/jpeg', 'jpeg', 'jpg',
       md5(i::text), 'seed', true, now()
FROM generate_series(1, $2::int) AS i`;

interface Side {
  label: "trove" | "bare";
  baseUrl: string;
  pid: number;
}

interface Run {
  load: LoadResult;
  /** CPU ms per mint of the server process and of PostgreSQL's backends. */
  serverMs: number;
  postgresMs: number;
}

export async function benchSignedUrlMint(ctx: BenchContext): Promise<BenchResult> {
  const url = await ctx.databaseUrl();
  if (!url) throw new Error("bench 16 needs PostgreSQL (TROVE_BENCH_DATABASE_URL); none answered");
  const files = ctx.quick ? 2_000 : 10_000;
  const seconds = ctx.quick ? 2 : 5;
  const keys = newKeys();
  const signingKey = randomBytes(32).toString("hex");
  const options = { databaseUrl: url, keys, env: { TROVE_URL_SIGNING_KEY: signingKey } };
  const server = await startTroveServer(options);
  const db = new pg.Client({ connectionString: url });
  db.on("error", () => {});
  await db.connect();
  const backends = await databaseCpuMeter(url);
  if (!backends) throw new Error("bench 16 needs PostgreSQL");
  let bare: Awaited<ReturnType<typeof startListeningScript>> | undefined;
  try {
    // The workspace the dev seed made for the server's private key.
    const hash = createHash("sha256").update(keys.private).digest("hex");
    const { rows: found } = await db.query<{ id: string; workspace_no: string }>(
      "SELECT w.id::text AS id, w.workspace_no FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.hash = $1",
      [hash],
    );
    const workspace = found[0];
    if (!workspace) throw new Error("the dev seed left no workspace for the private key");
    const seedStarted = performance.now();
    await db.query(SEED_FILES_SQL, [workspace.id, files]);
    await db.query("VACUUM ANALYZE files");
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const fileNos = (
      await db.query<{ file_no: string }>("SELECT file_no::text FROM files WHERE workspace_id = $1::uuid", [
        workspace.id,
      ])
    ).rows.map((row) => row.file_no);
    ctx.log(`  ${fileNos.length.toLocaleString("en")} files seeded`);
    const bareArgs = [url, workspace.id, workspace.workspace_no, server.assetsUrl, keys.private, signingKey];
    bare = await startListeningScript("baselines/bare-signed-url-server.ts", bareArgs);
    const sides: Side[] = [
      { label: "trove", baseUrl: server.baseUrl, pid: server.pid },
      { label: "bare", baseUrl: bare.baseUrl, pid: bare.child.pid },
    ];
    const body = Buffer.from(JSON.stringify({ expires_in: 3600 }));
    const headers = { "x-api-key": keys.private, "content-type": "application/json" };
    const randomPath = () =>
      `/api/v1/files/${fileNos[Math.floor(Math.random() * fileNos.length)]}/signed-url`;
    await expectSameUrls(sides, fileNos[0] as string, headers, body);
    const mint = (baseUrl: string, connections: number, durationSeconds: number) =>
      runLoad({
        url: `${baseUrl}${randomPath()}`,
        method: "POST",
        headers,
        body,
        nextPath: randomPath,
        connections,
        durationSeconds,
      });
    // Warm-up: JIT, pools, each connection's prepared statements.
    for (const side of sides) await mint(side.baseUrl, 8, 2);
    const runs: Record<string, Run[]> = {};
    for (const connections of [8, 1]) {
      for (let run = 0; run < ctx.runs; run += 1) {
        for (const side of sides) {
          const meter = cpuMeter({ server: side.pid });
          const { result: load, seconds: postgres } = await backends.measure(() =>
            mint(side.baseUrl, connections, seconds),
          );
          const cpu = meter.stop();
          const key = `${side.label} ${connections}`;
          runs[key] = [
            ...(runs[key] ?? []),
            {
              load,
              serverMs: ((cpu.server ?? Number.NaN) * 1000) / load.requests,
              postgresMs: (postgres * 1000) / load.requests,
            },
          ];
        }
      }
      ctx.log(
        `  ${connections} client(s): ${fmt(mps(runs[`trove ${connections}`]), 0)} vs ${fmt(mps(runs[`bare ${connections}`]), 0)} mints/s`,
      );
    }
    const ratioAt = (connections: number) =>
      mps(runs[`trove ${connections}`]) / mps(runs[`bare ${connections}`]);
    const row = (id: string, connections: number, target: boolean): Row => {
      const ratio = ratioAt(connections);
      return {
        id,
        figure: `signed URLs minted for random files of ${files.toLocaleString("en")}, ${connections} client${connections > 1 ? "s" : ""}, mints/s`,
        trove: fmt(mps(runs[`trove ${connections}`]), 0),
        baseline: `${fmt(mps(runs[`bare ${connections}`]), 0)} (bare Fastify + one prepared statement on pg + HMAC)`,
        ratio: ratioText(ratio),
        target: target ? "≥ 0.8×" : "— (reported)",
        met: target ? verdict(ratio >= 0.8) : "n/a",
      };
    };
    const cpuLine = (connections: number) =>
      (["trove", "bare"] as const)
        .map((label) => {
          const side = runs[`${label} ${connections}`] ?? [];
          return (
            `${label === "trove" ? "trove-server" : "bare handler"} ${fmt(median(side.map((r) => r.serverMs)), 3)} ms + ` +
            `PostgreSQL ${fmt(median(side.map((r) => r.postgresMs)), 3)} ms`
          );
        })
        .join("; ");
    const troveCpu8 = median((runs["trove 8"] ?? []).map((r) => r.serverMs + r.postgresMs));
    const profiles: string[] = [];
    if (ctx.profile) {
      const work = (baseUrl: string) => mint(baseUrl, 8, seconds).then(() => undefined);
      profiles.push(
        await profileTroveServer(
          ctx,
          `- Profile of trove-server minting for 8 clients for ${seconds} s (\`--cpu-prof\`, unmeasured)`,
          options,
          { warm: (profiled) => work(profiled.baseUrl), work: (profiled) => work(profiled.baseUrl) },
        ),
        await profileBaselineScript(
          ctx,
          `- The bare handler, the same way`,
          "baselines/bare-signed-url-server.ts",
          bareArgs,
          { warm: work, work },
        ),
      );
    }
    return {
      rows: [row("16a", 8, true), row("16b", 1, false)],
      notes: [
        [
          `**16. Minting signed URLs.** ${ctx.databaseLabel}; ${files.toLocaleString("en")} private files seeded into the ` +
            `server's workspace (${fmt(seedSeconds, 1)} s, VACUUM ANALYZE included). Each request names a random file; ` +
            "body `{ expires_in: 3600 }`, private key in `x-api-key`. Before the load, one file's URL from each side " +
            `was checked equal (same key, same scheme). autocannon, ${seconds} s per run, ${ctx.runs} run(s) per side and ` +
            "client count, alternating; medians shown. trove-server authenticates the key (its key cache), " +
            "rate-limits, validates the body (transform grammar, ladders), scopes the file to the workspace and " +
            "serialises through the response schema; the bare handler compares one header and signs.",
          "",
          `CPU per mint (median of runs; PostgreSQL is the backends connected to the bench's database): 8 clients: ${cpuLine(8)}. ` +
            `1 client: ${cpuLine(1)}.`,
          "",
          `Supabase Storage (the issue's peer) does not run on this machine: its ${PEER_CPU_MS_PER_URL} ms of CPU per URL ` +
            `is quoted from the issue, not measured here. Trove here: ${fmt(troveCpu8, 3)} ms per mint at 8 clients ` +
            `(server and PostgreSQL), ${fmt(troveCpu8 / PEER_CPU_MS_PER_URL, 2)}× the quoted figure.`,
          "",
          `Runs (mints/s): ${Object.entries(runs)
            .map(
              ([label, list]) => `${label}: ${list.map((r) => fmt(r.load.requestsPerSecond, 0)).join(", ")}`,
            )
            .join("; ")}.`,
          ...(profiles.length > 0 ? ["", ...profiles] : []),
        ].join("\n"),
      ],
    };
  } finally {
    await bare?.child.stop().catch(() => {});
    await db.end().catch(() => {});
    await backends.close().catch(() => {});
    await server.stop().catch(() => {});
  }
}

/** Both sides mint the same URL for one file (retried when a second boundary splits their `exp`). */
async function expectSameUrls(
  sides: Side[],
  fileNo: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<void> {
  let answers: string[] = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    answers = await Promise.all(
      sides.map(async (side) => {
        const response = await fetch(`${side.baseUrl}/api/v1/files/${fileNo}/signed-url`, {
          method: "POST",
          headers,
          body: body.toString(),
        });
        if (response.status !== 200) throw new Error(`${side.label} answered ${response.status}`);
        return ((await response.json()) as { data: { url: string } }).data.url;
      }),
    );
    if (answers[0] === answers[1]) return;
  }
  throw new Error(`the two sides mint different URLs: ${answers.join(" vs ")}`);
}

function mps(runs: Run[] | undefined): number {
  return median((runs ?? []).map((r) => r.load.requestsPerSecond));
}
