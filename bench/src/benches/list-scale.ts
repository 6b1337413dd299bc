/**
 * Bench 9: listing at scale, on PostgreSQL. Three workspaces of 10,000, 100,000 and 1,000,000
 * files, each spread over 20 root folders, in one database. Page 1 of `GET /api/v1/files` and the
 * root `GET /api/v1/folders` (with `total_items`/`total_size`) of each, one request at a time,
 * the workspaces taking turns (p50), so that whatever else the machine does weighs on every size
 * alike. In the 100,000 one: the same requests from 1 and from 8 concurrent clients (autocannon)
 * against a bare Fastify + `pg` handler that runs only the page query, without count or totals
 * (bench/src/baselines/bare-list-server.ts), alternating. And one searching list (`name=`), whose
 * total is counted from the rows by design, to show what that costs at each size.
 *
 * Files are loaded as an operator bulk-loads: the row triggers off (the counting trigger, and the
 * usage and quota triggers, which update one usage row per inserted row: a million-row statement
 * would take minutes), one INSERT ... SELECT generate_series per workspace, the triggers on, then
 * `trove-server counts repair`'s function and VACUUM ANALYZE. Usage totals are not read here.
 */
import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { startListeningScript } from "../support/child-script.js";
import type { BenchContext } from "../support/context.js";
import { type LoadResult, runLoad } from "../support/load.js";
import { profileTroveServer } from "../support/profile-server.js";
import { type BenchResult, fmt, type Row, ratioText, verdict } from "../support/report.js";
import { median, percentile } from "../support/stats.js";
import { firstFileIs, timedGet } from "../support/timed-get.js";
import { newKeys, startTroveServer } from "../support/trove-server.js";

const FOLDERS = 20;

/** A workspace with a private key ($2 = its SHA-256), as `trove-server keys create` would leave it. */
const SEED_WORKSPACE_SQL = `
WITH w AS (
  INSERT INTO workspaces (id, workspace_no, name, webhook_secret, updated_at)
  VALUES (gen_random_uuid(), $1, $1, 'unused', now()) RETURNING id
)
INSERT INTO api_keys (id, workspace_id, type, prefix, hash)
SELECT gen_random_uuid(), w.id, 'private', left($1, 17), $2 FROM w
RETURNING workspace_id`;

const SEED_FOLDERS_SQL = `
INSERT INTO folders (id, folder_no, workspace_id, name, path, updated_at)
SELECT gen_random_uuid(), $2 || lpad(i::text, 2, '0'), $1::uuid, 'f' || lpad(i::text, 2, '0'),
       'f' || lpad(i::text, 2, '0'), now()
FROM generate_series(0, ${FOLDERS - 1}) AS i`;

/** Files from..to; file i is i seconds older than now, so photo-1.jpg stays the newest. */
const SEED_FILES_SQL = `
WITH f AS (SELECT array_agg(id ORDER BY name) AS ids FROM folders WHERE workspace_id = $1::uuid)
INSERT INTO files (id, workspace_id, folder_id, name, path, storage_key, size, mime_type, format, extension,
                   width, height, hash, upload_source, created_at, updated_at)
SELECT gen_random_uuid(), $1::uuid, f.ids[1 + i % ${FOLDERS}], 'photo-' || i || '.jpg',
       'f' || lpad((i % ${FOLDERS})::text, 2, '0') || '/photo-' || i || '.jpg',
       $1 || '/' || gen_random_uuid() || '/photo-' || i || '.jpg', 100000 + i % 1000, 'image/jpeg', 'jpeg', 'jpg',
       1024, 768, md5(i::text), 'seed', now() - i * interval '1 second', now() - i * interval '1 second'
FROM f, generate_series($2::int, $3::int) AS i`;

interface SizeFigures {
  files: number;
  filesP50: number;
  foldersP50: number;
  searchP50: number;
}

const newestFirst = firstFileIs("photo-1.jpg");
const twentyFolders = (body: unknown) => (body as { folders?: unknown[] }).folders?.length === FOLDERS;

export async function benchListScale(ctx: BenchContext): Promise<BenchResult> {
  const url = await ctx.databaseUrl();
  if (!url) throw new Error("bench 9 needs PostgreSQL (TROVE_BENCH_DATABASE_URL); none answered");
  const sizes = ctx.quick ? [2_000, 20_000, 200_000] : [10_000, 100_000, 1_000_000];
  const [small, middle, large] = sizes as [number, number, number];
  const samples = ctx.quick ? 30 : 100;
  const seconds = ctx.quick ? 2 : 5;
  const keys = newKeys();
  const server = await startTroveServer({ databaseUrl: url, keys });
  const db = new pg.Client({ connectionString: url });
  db.on("error", () => {});
  await db.connect();
  let bare: Awaited<ReturnType<typeof startListeningScript>> | undefined;
  try {
    // One workspace per size, each with its own private key.
    const workspaces: Array<{ size: number; key: string; id: string }> = [];
    let seedSeconds = 0;
    for (const size of sizes) {
      const key = `trove_sk_${randomBytes(24).toString("base64url").replace(/[-_]/g, "0").slice(0, 32)}`;
      const workspaceNo = `bench${size}`;
      const hash = createHash("sha256").update(key).digest("hex");
      const [{ workspace_id: id }] = (await db.query(SEED_WORKSPACE_SQL, [workspaceNo, hash])).rows as [
        { workspace_id: string },
      ];
      const started = performance.now();
      await db.query(SEED_FOLDERS_SQL, [id, `${workspaceNo}f`]);
      await db.query("ALTER TABLE files DISABLE TRIGGER USER");
      await db.query(SEED_FILES_SQL, [id, 1, size]);
      await db.query("ALTER TABLE files ENABLE TRIGGER USER");
      seedSeconds += (performance.now() - started) / 1000;
      workspaces.push({ size, key, id });
      ctx.log(`  ${size.toLocaleString("en")} files seeded`);
    }
    const started = performance.now();
    await db.query("SELECT * FROM trove_recount_files(true)");
    await db.query("VACUUM ANALYZE files");
    await db.query("VACUUM ANALYZE folders");
    seedSeconds += (performance.now() - started) / 1000;
    const mid = workspaces.find((w) => w.size === middle) as (typeof workspaces)[number];
    bare = await startListeningScript("baselines/bare-list-server.ts", [url, mid.id]);
    const troveFiles = `${server.baseUrl}/api/v1/files?limit=25`;
    const troveFolders = `${server.baseUrl}/api/v1/folders`;
    const search = `${server.baseUrl}/api/v1/files?limit=25&name=photo-1`;
    const timings = workspaces.map(() => ({
      files: [] as number[],
      folders: [] as number[],
      search: [] as number[],
    }));
    // Warm-up (JIT, pools, caches), then the sizes take turns request by request.
    for (let i = 0; i < 100; i += 1) {
      for (const w of workspaces) {
        await timedGet(troveFiles, w.key, newestFirst);
        await timedGet(troveFolders, w.key, twentyFolders);
      }
    }
    for (let i = 0; i < samples; i += 1) {
      for (const [index, w] of workspaces.entries()) {
        const t = timings[index] as (typeof timings)[number];
        t.files.push(await timedGet(troveFiles, w.key, newestFirst));
        t.folders.push(await timedGet(troveFolders, w.key, twentyFolders));
        if (i < samples / 5) t.search.push(await timedGet(search, w.key, newestFirst));
      }
    }
    const figures: SizeFigures[] = workspaces.map((w, index) => {
      const t = timings[index] as (typeof timings)[number];
      return {
        files: w.size,
        filesP50: percentile(t.files, 50),
        foldersP50: percentile(t.folders, 50),
        searchP50: percentile(t.search, 50),
      };
    });
    const load: Record<string, LoadResult[]> = {};
    const targets: Array<[string, string, string | undefined]> = [
      ["trove files", troveFiles, mid.key],
      ["bare files", `${bare.baseUrl}/files`, undefined],
      ["trove folders", troveFolders, mid.key],
      ["bare folders", `${bare.baseUrl}/folders`, undefined],
    ];
    for (const connections of [1, 8]) {
      for (let run = 0; run < ctx.runs; run += 1) {
        for (const [label, target, key] of targets) {
          const result = await runLoad({
            url: target,
            headers: key ? { "x-api-key": key } : {},
            connections,
            durationSeconds: seconds,
          });
          const name = `${label} ${connections}`;
          load[name] = [...(load[name] ?? []), result];
        }
      }
      ctx.log(
        `  ${connections} client(s): files ${fmt(rps(load[`trove files ${connections}`]), 0)} vs ${fmt(rps(load[`bare files ${connections}`]), 0)} req/s, ` +
          `folders ${fmt(rps(load[`trove folders ${connections}`]), 0)} vs ${fmt(rps(load[`bare folders ${connections}`]), 0)} req/s`,
      );
    }
    const at = (size: number) => figures.find((f) => f.files === size) as SizeFigures;
    const n = (size: number) => size.toLocaleString("en");
    const throughputRow = (
      id: string,
      what: "files" | "folders",
      connections: number,
      target: boolean,
    ): Row => {
      const trove = rps(load[`trove ${what} ${connections}`]);
      const baseline = rps(load[`bare ${what} ${connections}`]);
      const ratio = trove / baseline;
      return {
        id,
        figure:
          what === "files"
            ? `list files page 1 of ${n(middle)}, ${connections} client${connections > 1 ? "s" : ""}, req/s`
            : `list root folders with totals (${FOLDERS} folders over ${n(middle)} files), ${connections} client${connections > 1 ? "s" : ""}, req/s`,
        trove: fmt(trove, 0),
        baseline: `${fmt(baseline, 0)} (bare Fastify + pg, ${what === "files" ? "page query" : "folder query"} only)`,
        ratio: ratioText(ratio),
        target: target ? "≥ 0.8×" : "—",
        met: target ? verdict(ratio >= 0.8) : "n/a",
      };
    };
    const growthRow = (id: string, what: "files" | "folders"): Row => {
      const big = what === "files" ? at(large).filesP50 : at(large).foldersP50;
      const base = what === "files" ? at(small).filesP50 : at(small).foldersP50;
      const ratio = big / base;
      return {
        id,
        figure: `${what === "files" ? "list files page 1" : "list root folders with totals"} at ${n(large)} files, p50 ms`,
        trove: fmt(big),
        baseline: `${fmt(base)} (same at ${n(small)})`,
        ratio: ratioText(ratio),
        target: "≤ 1.2×",
        met: verdict(ratio <= 1.2),
      };
    };
    const searchRatio = at(large).searchP50 / at(small).searchP50;
    const profiles: string[] = [];
    const large1 = workspaces.find((w) => w.size === large) as (typeof workspaces)[number];
    // Each missed throughput target gets a profile of trove-server answering that list.
    for (const [what, path, figure] of [
      ["files", "/api/v1/files?limit=25", `page 1 of ${n(large)} files`],
      ["folders", "/api/v1/folders", `the root folders (with totals) of ${n(large)} files`],
    ] as const) {
      const ratio = rps(load[`trove ${what} 8`]) / rps(load[`bare ${what} 8`]);
      if (!ctx.profile || ratio >= 0.8) continue;
      const listLoad = (baseUrl: string) =>
        runLoad({
          url: `${baseUrl}${path}`,
          headers: { "x-api-key": large1.key },
          connections: 8,
          durationSeconds: seconds,
        }).then(() => undefined);
      profiles.push(
        await profileTroveServer(
          ctx,
          `- Profile of trove-server answering ${figure} to 8 clients for ${seconds} s (\`--cpu-prof\`, unmeasured)`,
          { databaseUrl: url, keys },
          { warm: (profiled) => listLoad(profiled.baseUrl), work: (profiled) => listLoad(profiled.baseUrl) },
        ),
      );
    }
    return {
      rows: [
        throughputRow("9a", "files", 8, true),
        throughputRow("9b", "files", 1, false),
        growthRow("9c", "files"),
        throughputRow("9d", "folders", 8, true),
        throughputRow("9e", "folders", 1, false),
        growthRow("9f", "folders"),
        {
          id: "9g",
          figure: `search \`name=photo-1\` page 1 at ${n(large)} files (total counted from the rows), p50 ms`,
          trove: fmt(at(large).searchP50),
          baseline: `${fmt(at(small).searchP50)} (same at ${n(small)})`,
          ratio: ratioText(searchRatio),
          target: "— (exact by choice)",
          met: "n/a",
        },
      ],
      notes: [
        [
          `**9. Listing at scale.** ${ctx.databaseLabel}; three workspaces of ${sizes.map(n).join(", ")} files, each over ` +
            `${FOLDERS} root folders, in one database, bulk-loaded with the counting trigger off and recounted by \`trove_recount_files\` ` +
            `(what \`trove-server counts repair\` runs; ${fmt(seedSeconds, 0)} s for all loads, VACUUM ANALYZE included). ` +
            "Each answer is checked (newest file first; all folders listed). Latency: one request at a time, the " +
            `workspaces taking turns request by request, ${samples} per list and size (the search: ${samples / 5}), ` +
            "p50 of the client's time to parsed JSON. " +
            `Throughput at ${n(middle)}: autocannon, ${seconds} s per run, ${ctx.runs} run(s) per target, alternating; ` +
            "medians shown. trove-server authenticates (private key), rate-limits, validates and serialises through " +
            "the response schema, and reads `meta.total` or the folders' totals from the kept counts, with its statements " +
            "prepared once per connection (TROVE_DATABASE_PREPARED_STATEMENTS, on by default); the bare handler only " +
            "queries, unprepared, as `pool.query(text, values)` does.",
          "",
          "| files | list files p50 ms | list folders p50 ms | search p50 ms |",
          "| --- | --- | --- | --- |",
          ...figures.map(
            (f) => `| ${n(f.files)} | ${fmt(f.filesP50)} | ${fmt(f.foldersP50)} | ${fmt(f.searchP50)} |`,
          ),
          "",
          `Throughput runs (req/s): ${Object.entries(load)
            .map(
              ([label, results]) => `${label}: ${results.map((r) => fmt(r.requestsPerSecond, 0)).join(", ")}`,
            )
            .join("; ")}.`,
          "",
          "- A search (`name`, `path`, `tags`) counts its matches exactly, so its cost grows with the rows it " +
            `must read: ${fmt(searchRatio, 1)}× from ${n(small)} to ${n(large)} files (row 9g). Unfiltered and ` +
            "`folder_no` lists and folder totals read the kept counts and do not grow.",
          ...profiles,
        ].join("\n"),
      ],
    };
  } finally {
    await bare?.child.stop().catch(() => {});
    await db.end().catch(() => {});
    await server.stop().catch(() => {});
  }
}

function rps(results: LoadResult[] | undefined): number {
  return median((results ?? []).map((r) => r.requestsPerSecond));
}
