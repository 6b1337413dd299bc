/**
 * `pnpm bench` (root) → this file: every benchmark beside its baseline in one run, then
 * bench/RESULTS.md (a full run) or bench/RESULTS.quick.md (`--quick`, for CI).
 *
 *   --quick         one run each, smaller sizes (about 2 to 3 minutes)
 *   --only=1,5      just these benches (by number; writes RESULTS.partial.md)
 *   --profile       with --quick: still profile trove-server where a target is missed
 *
 * Exit status: 1 when a bench crashed (its rows say "bench failed"); a missed target is a
 * finding in the table, never a failure. Every child process and temporary database is removed
 * at the end, also on failure or Ctrl-C.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { stopAllChildren } from "@trove/test-support/children";
import { benchBundleSize } from "./benches/bundle-size.js";
import { benchConsoleFirstLoad } from "./benches/console-first-load.js";
import { benchDominantContentUploads } from "./benches/dominant-content-uploads.js";
import { benchFreshRenders } from "./benches/fresh-renders.js";
import { benchHeicRender } from "./benches/heic-render.js";
import { benchImages } from "./benches/images.js";
import { benchLayerRenders } from "./benches/layer-renders.js";
import { benchListFiles } from "./benches/list-files.js";
import { benchListScale } from "./benches/list-scale.js";
import { benchMemory } from "./benches/memory.js";
import { benchSignedUrlMint } from "./benches/signed-url-mint.js";
import { benchSmallUploads } from "./benches/small-uploads.js";
import { benchDistinctSmallUploads } from "./benches/small-uploads-distinct.js";
import { benchFolderSmallUploads } from "./benches/small-uploads-folder.js";
import { benchSourceDelivery } from "./benches/source-delivery.js";
import { benchUploadFs } from "./benches/upload-fs.js";
import { benchUploadFsWhole } from "./benches/upload-fs-whole.js";
import { benchUploadS3 } from "./benches/upload-s3.js";
import { benchUploadTus } from "./benches/upload-tus.js";
import { benchVideoTranscode } from "./benches/video-transcode.js";
import type { BenchContext } from "./support/context.js";
import { describeMachine, loadAverage } from "./support/machine.js";
import { type BenchDatabase, probePostgres } from "./support/postgres.js";
import { renderResults } from "./support/render.js";
import { type BenchResult, errorRow, type Row } from "./support/report.js";
import { settleDisk } from "./support/settle-disk.js";
import { createScratch } from "./support/test-files.js";
import { startTroveServer, type TroveServer } from "./support/trove-server.js";

interface Bench {
  number: string;
  title: string;
  run: (ctx: BenchContext) => Promise<BenchResult>;
  /** Rows to show when the bench crashes. */
  failedRows: Array<[id: string, figure: string, target: string]>;
}

const BENCHES: Bench[] = [
  {
    number: "7",
    title: "bundle size",
    run: benchBundleSize,
    failedRows: [["7", "min+gzip size of the upload-only browser entry", "smallest of them"]],
  },
  {
    number: "15",
    title: "console first load",
    run: benchConsoleFirstLoad,
    failedRows: [["15", "first load of the console (sign-in page): JavaScript min+gzip, KiB", "≤ 250 KiB"]],
  },
  {
    number: "3",
    title: "memory",
    run: benchMemory,
    failedRows: [
      ["3a", "peak RSS of the SDK uploading a large file", "≤ 200 MiB"],
      ["3b", "growth of the server's RSS during a direct upload", "≤ 100 MiB"],
    ],
  },
  {
    number: "1",
    title: "multipart upload to fs",
    run: benchUploadFs,
    failedRows: [["1", "multipart upload, SDK → server (gateway) → fs, MB/s", "≥ 0.8×"]],
  },
  {
    number: "1",
    title: "large upload with SDK defaults against one bare PUT",
    run: benchUploadFsWhole,
    failedRows: [["1b", "upload of 1024 MiB, SDK defaults → server (gateway) → fs, MB/s", "≥ 0.8×"]],
  },
  {
    number: "14",
    title: "tus upload beside multipart",
    run: benchUploadTus,
    failedRows: [
      ["14a", "tus upload with tus-js-client, default chunking → fs, MB/s", "— (reported)"],
      ["14b", "tus upload with tus-js-client, 32 MiB chunks → fs, MB/s", "— (reported)"],
    ],
  },
  {
    number: "6",
    title: "images",
    run: benchImages,
    failedRows: [
      ["6a", "store-time w_800 on a 12 MP JPEG", "≤ 1.3×"],
      ["6b", "delivery of a cached variant", "≤ 1.2×"],
    ],
  },
  {
    number: "10",
    title: "HEIC to WebP",
    run: benchHeicRender,
    failedRows: [["10", "fresh w_800,f_webp of a 12 MP HEIC, wall time ms", "— (reported)"]],
  },
  {
    number: "13",
    title: "video transforms through the asynchronous lifecycle",
    run: benchVideoTranscode,
    failedRows: [
      ["13a", "w_720 of a 1080p 10 s clip, ms until served", "≤ 1.15×"],
      ["13b", "f_gif,so_0,eo_5,w_400 of a 1080p 10 s clip, ms until served", "≤ 1.15×"],
      ["13c", "growth of trove-server's RSS during those transcodes", "≤ 150 MiB"],
    ],
  },
  {
    number: "12",
    title: "layers on a 12 MP JPEG",
    run: benchLayerRenders,
    failedRows: [
      ["12a", "fresh w_1200 of a 12 MP JPEG with a text and an image layer, wall time ms", "— (reported)"],
      ["12b", "the same variants cached, mean latency ms", "— (reported)"],
    ],
  },
  {
    number: "11",
    title: "fresh renders, imgproxy's shape",
    run: benchFreshRenders,
    failedRows: [
      ["11a", "fresh renders/s, 2 clients, ~2K JPEGs fit into 512×512, JPEG q80", "≥ 0.9×"],
      ["11b", "fresh renders/s, 2 clients, ~2K JPEGs fit into 512×512, WebP q75", "≥ 0.9×"],
      ["11c", "fresh renders/s, 2 clients, ~2K JPEGs fit into 512×512, AVIF q65", "≥ 0.9×"],
    ],
  },
  {
    number: "4",
    title: "small direct uploads",
    run: benchSmallUploads,
    failedRows: [
      ["4", "small direct uploads, req/s", "—"],
      ["4b", "the same uploads against a baseline that also stores the row, req/s", "≥ 0.7×"],
    ],
  },
  {
    number: "4",
    title: "small uploads of distinct images",
    run: benchDistinctSmallUploads,
    failedRows: [
      ["4d", "small uploads whose bytes all differ, with and without the ingest features", "— (reported)"],
    ],
  },
  {
    number: "4e",
    title: "small uploads into a workspace one content dominates",
    run: benchDominantContentUploads,
    failedRows: [
      ["4e", "small uploads of distinct bytes into a workspace one content dominates, req/s", "≥ 0.95×"],
    ],
  },
  {
    number: "4f",
    title: "small uploads into a nested folder beside root uploads",
    run: benchFolderSmallUploads,
    failedRows: [["4f", "small uploads into an existing folder a/b/c, req/s", "≤ 1.15×"]],
  },
  {
    number: "2",
    title: "multipart upload to s3",
    run: benchUploadS3,
    failedRows: [["2", "multipart upload, SDK → server → s3 (s3rver), MB/s", "≥ 1.0×"]],
  },
  {
    number: "8",
    title: "delivery from a source",
    run: benchSourceDelivery,
    failedRows: [
      ["8a", "first delivery of w_800 from an s3 source", "≤ 1.5×"],
      ["8b", "delivery of a cached variant from an s3 source", "≤ 1.2×"],
    ],
  },
  {
    number: "5",
    title: "list files",
    run: benchListFiles,
    failedRows: [
      ["5a", "list files, page 1, p50 / p99 ms", "p99 ≤ 25 ms"],
      ["5b", "list files, deep page", "≤ 3× page 1"],
    ],
  },
  {
    number: "9",
    title: "listing at scale",
    run: benchListScale,
    failedRows: [
      ["9a", "list files page 1 of 100,000, 8 clients, req/s", "≥ 0.8×"],
      ["9c", "list files page 1 at 1,000,000 files vs 10,000, p50 ms", "≤ 1.2×"],
      ["9d", "list root folders with totals, 8 clients, req/s", "≥ 0.8×"],
      ["9f", "list root folders with totals at 1,000,000 files vs 10,000, p50 ms", "≤ 1.2×"],
    ],
  },
  {
    number: "16",
    title: "minting signed URLs",
    run: benchSignedUrlMint,
    failedRows: [
      ["16a", "signed URLs minted for random files, 8 clients, mints/s", "≥ 0.8×"],
      ["16b", "signed URLs minted for random files, 1 client, mints/s", "— (reported)"],
    ],
  },
];

function parseArgs(argv: string[]) {
  const quick = argv.includes("--quick");
  const profile = !quick || argv.includes("--profile");
  const only = argv
    .find((arg) => arg.startsWith("--only="))
    ?.slice("--only=".length)
    .split(",")
    .filter(Boolean);
  return { quick, only, profile };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function main(): Promise<number> {
  const { quick, only, profile } = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const machine = describeMachine();
  const loadBefore = loadAverage();
  const log = (message: string) => console.log(message);
  const scratch = createScratch();
  const postgres = await probePostgres();
  const databaseLabel = postgres
    ? `PostgreSQL ${postgres.version} (local, loopback)`
    : "PGlite (embedded; no PostgreSQL reachable)";
  const databases: BenchDatabase[] = [];
  let shared: Promise<TroveServer> | undefined;
  const ctx: BenchContext = {
    quick,
    profile,
    runs: quick ? 1 : 3,
    scratch,
    postgres,
    databaseLabel,
    log,
    async databaseUrl() {
      if (!postgres) return undefined;
      const database = await postgres.createDatabase();
      databases.push(database);
      return database.url;
    },
    fsServer() {
      shared ??= (async () => startTroveServer({ databaseUrl: await ctx.databaseUrl() }))();
      return shared;
    },
  };

  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    if (shared) await (await shared.catch(() => undefined))?.stop().catch(() => {});
    await stopAllChildren();
    for (const database of databases) await database.drop().catch(() => {});
    scratch.remove();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping every child process...`);
      cleanup().finally(() => process.exit(130));
    });
  }

  const rows: Row[] = [];
  const notes: string[] = [];
  const timings: string[] = [];
  let crashed = 0;
  try {
    log(
      `trove bench (${quick ? "quick" : "full"}): ${machine.cores} cores, Node ${machine.node}, ${databaseLabel}`,
    );
    log(`load average before: ${loadBefore}`);
    for (const bench of BENCHES) {
      if (only && !only.includes(bench.number)) continue;
      log(`\n[${bench.number}] ${bench.title}`);
      log(`  sync before it: ${await settleDisk()} ms`);
      const benchStarted = Date.now();
      try {
        const result = await withTimeout(bench.run(ctx), quick ? 150_000 : 420_000, `bench ${bench.number}`);
        rows.push(...result.rows);
        notes.push(...result.notes);
        for (const row of result.rows) {
          log(
            `  ${row.id}: Trove ${row.trove} | baseline ${row.baseline} | ${row.ratio} | target ${row.target}: ${row.met}`,
          );
        }
      } catch (error) {
        crashed += 1;
        console.error(`  bench ${bench.number} failed:`, error);
        rows.push(...bench.failedRows.map(([id, figure, target]) => errorRow(id, figure, target, error)));
      }
      timings.push(`${bench.number}: ${((Date.now() - benchStarted) / 1000).toFixed(0)} s`);
    }
  } finally {
    await cleanup();
  }

  const elapsedSeconds = (Date.now() - started) / 1000;
  const markdown = renderResults({
    quick,
    machine,
    databaseLabel,
    loadBefore,
    loadAfter: loadAverage(),
    elapsedSeconds,
    timings,
    rows,
    notes,
  });
  const target = fileURLToPath(new URL(quick ? "../RESULTS.quick.md" : "../RESULTS.md", import.meta.url));
  if (!only || quick) writeFileSync(target, markdown);
  else writeFileSync(target.replace(/RESULTS\.md$/, "RESULTS.partial.md"), markdown);
  log(`\n${markdown.split("\n## ")[0]}`);
  log(`done in ${elapsedSeconds.toFixed(0)} s; ${crashed} bench(es) crashed`);
  return crashed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    console.error(error);
    await stopAllChildren();
    process.exit(1);
  },
);
