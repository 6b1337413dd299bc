/**
 * Reliability 4b: the storage, then the database, goes away for a few seconds while uploads are
 * in flight. trove-server reaches PostgreSQL and the S3 store (s3rver) through loopback TCP
 * proxies that the test cuts (every connection reset, new ones refused) and restores.
 *
 * Asserted, for each dependency:
 * - during the outage, requests that need it are answered, quickly, with 503 in their group's
 *   envelope and a Retry-After header (never a 500, never a hang), and the outage was felt;
 * - every upload either finished or failed with a TroveError; failed ones, run again once the
 *   dependency is back, all finish (multipart ones resume their session);
 * - afterwards every file row has its object, and once the sweeper has run (orphan grace 5 s),
 *   no stored object lacks a row.
 *
 * Needs TROVE_TEST_DATABASE_URL (an admin URL of a PostgreSQL server on loopback).
 */
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { errorMessageSchema, errorShapeFor } from "@trove/schema";
import { createClient, fileSessionStore, TroveError } from "@trove/sdk/node";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3rverHandle, startS3rver } from "../../apps/server/test/support/s3rver.js";
import { byProfile, PROFILE, reportFigures, uploadSmallFile } from "../support/reliability-profile";
import { distinctLoggedErrors } from "../support/server-log";
import { startTcpFaultProxy, type TcpFaultProxy } from "../support/tcp-fault-proxy";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { checkRowObjects, listAllFiles, patternBytes } from "../support/workspace-files";

const adminUrl = process.env.TROVE_TEST_DATABASE_URL;
const MIB = 1024 * 1024;
const N = byProfile({ short: 8, long: 8, full: 20 }); // uploads per outage: half multipart, half direct
const OUTAGE_MS = byProfile({ short: 3_000, long: 3_000, full: 5_000 });
const ORPHAN_GRACE_MS = 5_000;
/** A request that takes longer than this during an outage counts as a hang. */
const HANG_MS = 20_000;

interface Probe {
  status: number;
  ms: number;
  duringOutage: boolean;
  body: unknown;
  retryAfter: string | null;
}

/** Every object key s3rver holds in the bucket (it stores `<key>._S3rver_object` files). */
async function bucketKeys(s3: S3rverHandle): Promise<string[]> {
  const root = join(s3.directory, s3.bucket);
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith("._S3rver_object"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).replace(/\._S3rver_object$/, ""));
}

describe.runIf(adminUrl)(`dependency outages mid-run (${PROFILE} profile, ${N} uploads each)`, () => {
  let database: TestDatabase;
  let s3: S3rverHandle;
  let dbProxy: TcpFaultProxy;
  let s3Proxy: TcpFaultProxy;
  let server: ServerProcess;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    database = createTestDatabase(adminUrl!, "outages");
    s3 = await startS3rver({ bucket: "trove-outages" });
    const dbUrl = new URL(database.url);
    dbProxy = await startTcpFaultProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
    s3Proxy = await startTcpFaultProxy({ host: s3.host, port: s3.port });
    dbUrl.hostname = "127.0.0.1";
    dbUrl.port = String(dbProxy.port);
    server = await startServerProcess({
      DATABASE_URL: dbUrl.toString(),
      TROVE_STORAGE: "s3",
      TROVE_S3_ENDPOINT: `http://127.0.0.1:${s3Proxy.port}`,
      TROVE_S3_REGION: s3.region,
      TROVE_S3_BUCKET: s3.bucket,
      TROVE_S3_ACCESS_KEY: s3.accessKey,
      TROVE_S3_SECRET_KEY: s3.secretKey,
      TROVE_RATE_LIMIT_MAX: "1000000",
      TROVE_MULTIPART_SWEEP_INTERVAL_MS: "1000",
      TROVE_ORPHAN_GRACE_MS: String(ORPHAN_GRACE_MS),
    });
  });

  afterAll(async () => {
    reportFigures("outages", figures);
    await server?.stop();
    await Promise.allSettled([dbProxy?.close(), s3Proxy?.close(), s3?.stop()]);
    database?.drop();
  });

  it.each(["storage", "database"] as const)(
    "%s unavailable for a few seconds",
    async (dependency) => {
      const started = Date.now();
      const logFrom = server.output().length;
      const proxy = dependency === "storage" ? s3Proxy : dbProxy;
      // What the probe asks for needs the dependency: a stored file's bytes, or a database query.
      const probeFile = await uploadSmallFile(server.baseUrl, server.keys.private, `probe-${dependency}.txt`);
      const probeUrl =
        dependency === "storage" ? String(probeFile.url) : `${server.baseUrl}/api/v1/files?limit=1`;

      const store = fileSessionStore(
        join(tmpdir(), `trove-outage-sessions-${process.pid}-${dependency}.json`),
      );
      const client = createClient({
        apiKey: server.keys.private,
        baseUrl: server.baseUrl,
        sessionStore: store,
        multipartThreshold: 5 * MIB,
        maxRetries: 2,
        maxRetryDelay: 1_000,
        concurrency: 2,
      });
      const jobs = Array.from({ length: N }, (_, i) => ({
        kind: i % 2 === 0 ? ("multipart" as const) : ("direct" as const),
        name: `${dependency}-${i}.bin`,
        bytes: patternBytes(i + (dependency === "storage" ? 0 : 5000), i % 2 === 0 ? 6 * MIB : MIB),
      }));
      let progressed = 0;
      const run = (job: (typeof jobs)[number]) =>
        client.upload(job.bytes, {
          fileName: job.name,
          contentType: "application/octet-stream",
          resumeKey: job.name,
          onProgress: (p) => {
            if (p.loaded > 0) progressed += 1;
          },
        });

      let outage = false;
      let probing = true;
      const probes: Probe[] = [];
      const probeLoop = (async () => {
        while (probing) {
          const duringOutage = outage;
          const t0 = Date.now();
          const response = await fetch(probeUrl, {
            headers: { "x-api-key": server.keys.private },
            signal: AbortSignal.timeout(HANG_MS * 2),
          });
          const text = await response.text();
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {}
          probes.push({
            status: response.status,
            ms: Date.now() - t0,
            duringOutage,
            body: response.status >= 400 ? body : undefined,
            retryAfter: response.headers.get("retry-after"),
          });
          await new Promise((r) => setTimeout(r, 100));
        }
      })();

      const first = Promise.allSettled(jobs.map(run));
      const deadline = Date.now() + 10_000;
      while (progressed === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      outage = true;
      proxy.cut();
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      proxy.restore();
      outage = false;
      const firstResults = await first;

      const outcome = { finished: 0, troveErrors: {} as Record<string, number>, otherErrors: [] as string[] };
      const retry: typeof jobs = [];
      firstResults.forEach((result, i) => {
        const job = jobs[i]!;
        if (result.status === "fulfilled") outcome.finished += 1;
        else if (result.reason instanceof TroveError) {
          const name = `${job.kind}: ${result.reason.name} ${result.reason.status ?? ""}`.trim();
          outcome.troveErrors[name] = (outcome.troveErrors[name] ?? 0) + 1;
          retry.push(job);
        } else outcome.otherErrors.push(String(result.reason));
      });
      const second = await Promise.allSettled(retry.map(run));
      const secondFailures = second.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : []));
      probing = false;
      await probeLoop;

      // Orphans are removed once older than the grace; wait for two sweeps past it.
      await new Promise((r) => setTimeout(r, ORPHAN_GRACE_MS + 2_500));
      const rows = await listAllFiles(server.baseUrl, server.keys.private);
      const { missingObjects, fileIds } = await checkRowObjects(server.baseUrl, server.keys.private, rows);
      const uploadKeys = (await bucketKeys(s3)).filter((key) => /^[0-9a-f-]{36}\/[0-9a-f-]{36}\//.test(key));
      const orphans = uploadKeys.filter((key) => !fileIds.has(key.split("/")[1] ?? ""));

      const failedProbes = probes.filter((p) => p.status >= 400);
      const logged = server.output().slice(logFrom);
      figures[dependency] = {
        profile: PROFILE,
        outageMs: OUTAGE_MS,
        uploads: { multipart: N / 2, direct: N / 2 },
        firstAttempt: outcome,
        retried: retry.length,
        secondAttemptFailures: secondFailures,
        probes: {
          total: probes.length,
          duringOutage: probes.filter((p) => p.duringOutage).length,
          statuses: Object.fromEntries(
            [...new Set(probes.map((p) => p.status))].map((s) => [
              s,
              probes.filter((p) => p.status === s).length,
            ]),
          ),
          slowestMs: Math.max(...probes.map((p) => p.ms)),
        },
        connectionsRefusedWhileCut: proxy.refusedWhileCut(),
        serverErrorsLogged: distinctLoggedErrors(logged),
        fileRows: rows.length,
        rowsWithoutObject: missingObjects.length,
        storedUploadObjects: uploadKeys.length,
        orphanObjects: orphans.length,
        durationMs: Date.now() - started,
      };

      expect(outcome.otherErrors).toEqual([]);
      expect(secondFailures).toEqual([]);
      expect(missingObjects).toEqual([]);
      expect(orphans).toEqual([]);
      // The outage was felt, answered clearly and never hung a request.
      expect(failedProbes.length).toBeGreaterThan(0);
      for (const probe of failedProbes) {
        expect(probe.status, JSON.stringify(probe)).toBe(503);
        expect(Number(probe.retryAfter)).toBeGreaterThanOrEqual(1);
        // The delivery host answers `{ error, message }`; the files group its own 5xx envelope.
        const shape = dependency === "storage" ? errorMessageSchema : errorShapeFor("files", 503);
        expect(shape.safeParse(probe.body).success, JSON.stringify(probe.body)).toBe(true);
      }
      expect(Math.max(...probes.map((p) => p.ms))).toBeLessThan(HANG_MS);
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    },
    600_000,
  );
});
