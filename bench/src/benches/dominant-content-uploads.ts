/**
 * Bench 4e (issue #37): small uploads of distinct bytes into a workspace where one content
 * dominates (a placeholder image uploaded 20,000 times, and 28,752 files over 10 other contents:
 * 48,752 rows, as the issue measured), beside the same uploads into a workspace of as many files
 * whose contents all differ. Both on PostgreSQL with statistics refreshed (ANALYZE), two
 * trove-servers, alternating. Before the duplicate check's query shape was fixed, the dominated
 * workspace's generic plan scanned every row for bytes it did not hold; the ratio shows whether any
 * distribution still costs an upload more than another.
 */
import pg from "pg";
import type { BenchContext } from "../support/context.js";
import type { LoadResult } from "../support/load.js";
import { type BenchResult, fmt, ratioText, verdict } from "../support/report.js";
import { median } from "../support/stats.js";
import { startTroveServer, type TroveServer } from "../support/trove-server.js";
import { distinctBodies, phoneUpload, postForm } from "./small-upload-servers.js";

const ROWS = 48_752;
const DOMINANT_ROWS = 20_000;
const TARGET = 0.95;

/**
 * Seeds the files of the workspace the bench's key uploads into (the one that already holds the
 * warm-up's uploads): one content for DOMINANT_ROWS rows when `dominated`, else all distinct.
 */
async function seed(databaseUrl: string, dominated: boolean): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>("SELECT workspace_id::text AS id FROM files LIMIT 1");
    const workspaceId = rows[0]?.id;
    if (!workspaceId) throw new Error("the bench server holds no upload to find its workspace by");
    const hash = dominated
      ? `CASE WHEN g <= ${DOMINANT_ROWS} THEN repeat('d', 64) ELSE repeat(chr(97 + g % 10), 64) END`
      : "md5(g::text) || md5((-g)::text)";
    // The row triggers (folder and workspace counts, usage, quotas) are off for the seed: they
    // would take minutes for rows that only need to be there for the planner, and no figure here
    // reads a count.
    await client.query("BEGIN");
    await client.query("ALTER TABLE files DISABLE TRIGGER USER");
    await client.query(
      `INSERT INTO files (id, workspace_id, name, path, storage_key, size, mime_type, format, extension,
                          hash, tags, metadata, upload_source, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'seed-' || g || '.jpg', 'seed/seed-' || g || '.jpg',
              'seed/' || g, 10, 'image/jpeg', 'jpeg', 'jpg', ${hash}, '{}'::text[], '{}'::jsonb,
              'upload', now(), now()
         FROM generate_series(1, ${ROWS}) AS g`,
      [workspaceId],
    );
    await client.query("ALTER TABLE files ENABLE TRIGGER USER");
    await client.query("COMMIT");
    await client.query("ANALYZE files");
  } finally {
    await client.end();
  }
}

export async function benchDominantContentUploads(ctx: BenchContext): Promise<BenchResult> {
  const figure =
    "small uploads of distinct bytes into a workspace where one content fills 20,000 of 48,752 rows, req/s";
  const dominatedDb = await ctx.databaseUrl();
  const spreadDb = await ctx.databaseUrl();
  if (dominatedDb === undefined || spreadDb === undefined) {
    return {
      rows: [
        {
          id: "4e",
          figure,
          trove: "n/a",
          baseline: "needs PostgreSQL (TROVE_BENCH_DATABASE_URL)",
          ratio: "n/a",
          target: `≥ ${TARGET}×`,
          met: "n/a",
        },
      ],
      notes: [],
    };
  }
  const { form } = await phoneUpload();
  const nextBody = distinctBodies(form.body);
  // Placeholders off on both: the sweep's decoding would add noise unrelated to the check.
  const env = { TROVE_PLACEHOLDERS: "false" };
  let dominated: TroveServer | undefined;
  let spread: TroveServer | undefined;
  const results = { dominated: [] as LoadResult[], spread: [] as LoadResult[] };
  const duration = ctx.quick ? 3 : 6;
  const rounds = Math.max(2, ctx.runs);
  try {
    dominated = await startTroveServer({ databaseUrl: dominatedDb, env });
    spread = await startTroveServer({ databaseUrl: spreadDb, env });
    const load = (server: TroveServer, seconds: number) =>
      postForm(
        `${server.baseUrl}/api/v1/uploads`,
        form,
        seconds,
        { "x-api-key": server.keys.public },
        nextBody,
      );
    await load(dominated, 1);
    await load(spread, 1);
    const seeding = Date.now();
    await seed(dominatedDb, true);
    await seed(spreadDb, false);
    ctx.log(`  seeded both workspaces in ${fmt((Date.now() - seeding) / 1000, 1)} s`);
    // Warm-up: well past the five runs after which PostgreSQL may keep a generic plan.
    await load(dominated, 2);
    await load(spread, 2);
    for (let run = 0; run < rounds; run += 1) {
      results.spread.push(await load(spread, duration));
      results.dominated.push(await load(dominated, duration));
      ctx.log(
        `  run ${run + 1}: dominated ${fmt(results.dominated[run]?.requestsPerSecond ?? 0, 0)} req/s, ` +
          `all distinct ${fmt(results.spread[run]?.requestsPerSecond ?? 0, 0)} req/s`,
      );
    }
  } finally {
    await dominated?.stop();
    await spread?.stop();
  }
  const rps = (list: LoadResult[]) => median(list.map((r) => r.requestsPerSecond));
  const ratio = rps(results.dominated) / rps(results.spread);
  return {
    rows: [
      {
        id: "4e",
        figure,
        trove: fmt(rps(results.dominated), 0),
        baseline: `${fmt(rps(results.spread), 0)} (the same uploads into a workspace of ${ROWS.toLocaleString("en")} files whose contents all differ)`,
        ratio: ratioText(ratio),
        target: `≥ ${TARGET}×`,
        met: verdict(ratio >= TARGET),
      },
    ],
    notes: [
      [
        "**4e. The duplicate check at any distribution.** Two trove-servers on PostgreSQL, each workspace " +
          `seeded with ${ROWS.toLocaleString("en")} rows and ANALYZEd: one where ${DOMINANT_ROWS.toLocaleString("en")} share one ` +
          "content and the rest 10 others, one where all differ. Bench 4's form with a counter in each body " +
          `(bench 4d's), placeholders off on both, ${rounds} rounds of ${duration} s, the all-distinct workspace first.`,
        `- Dominated: ${results.dominated.map((r) => fmt(r.requestsPerSecond, 0)).join(", ")} req/s.`,
        `- All distinct: ${results.spread.map((r) => fmt(r.requestsPerSecond, 0)).join(", ")} req/s.`,
      ].join("\n"),
    ],
  };
}
