/**
 * Reliability 6: sustained load. C upload workers (the SDK, each uploading one file after another,
 * mostly 32 KiB direct uploads and every twentieth a 6 MiB multipart upload) plus a steady list load run for
 * D seconds against one trove-server whose rate limit is set low enough to be hit.
 *
 * Asserted: no answer other than 2xx and 429 (and no connection failure); every 429 carries a
 * `retryAfterSeconds` that is a whole number of seconds within the window and equals its
 * Retry-After header; the SDK's retries get every upload through; every upload is listed.
 * Reported: uploads and lists per second, p50/p99 latency of each (an upload's includes its
 * waits after 429s), the 429 count.
 *
 * Short profile (every `npm test`): 20 workers for 12 s; long (`TROVE_LONG_TESTS=1`, CI): 50 for
 * 15 s; full (`TROVE_RELIABILITY=full`): 200 for 60 s. On PostgreSQL when TROVE_TEST_DATABASE_URL
 * is set, else PGlite.
 */
import { createClient } from "@trove/sdk/node";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, byProfile, PROFILE, reportFigures } from "../support/reliability-profile";
import { distinctLoggedErrors } from "../support/server-log";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { patternBytes } from "../support/workspace-files";

const WORKERS = byProfile({ short: 20, long: 50, full: 200 });
const DURATION_MS = byProfile({ short: 12_000, long: 15_000, full: 60_000 });
/** The list load stays under the private key's share of the limit: lists should mostly be answered. */
const LIST_INTERVAL_MS = 250;
/**
 * Per key and window (and, for the workers' public key, per visitor: all of them are one address):
 * half the workers may start an upload in each 5 s window, so the limit is hit from the first
 * second whatever the machine's speed, and an upload that loses the race for a window wins one of
 * the next few (the SDK retries up to 20 times).
 */
const RATE_LIMIT = { max: WORKERS / 2, windowMs: 5_000 };
const KIB = 1024;
const MIB = 1024 * KIB;

interface Answer {
  status: number;
  retryAfterHeader: string | null;
  retryAfterSeconds: unknown;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1),
  };
}

describe(`load: ${WORKERS} upload workers and a list load for ${DURATION_MS / 1000} s (${PROFILE} profile)`, () => {
  let server: ServerProcess;
  let database: TestDatabase | undefined;

  beforeAll(async () => {
    const adminUrl = process.env.TROVE_TEST_DATABASE_URL;
    database = adminUrl ? createTestDatabase(adminUrl, "load") : undefined;
    server = await startServerProcess({
      ...(database ? { DATABASE_URL: database.url } : {}),
      TROVE_RATE_LIMIT_MAX: String(RATE_LIMIT.max),
      TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX: String(RATE_LIMIT.max),
      TROVE_RATE_LIMIT_WINDOW_MS: String(RATE_LIMIT.windowMs),
    });
  });

  afterAll(async () => {
    await server?.stop();
    database?.drop();
  });

  it(
    "answers only 2xx and 429 with a correct retryAfterSeconds, and every upload gets through",
    async () => {
      const answers: Answer[] = [];
      const failures: string[] = [];
      // Every answer the SDK sees, before its retry policy acts on it.
      const recordingFetch: typeof fetch = async (input, init) => {
        let response: Response;
        try {
          response = await fetch(input, init);
        } catch (error) {
          failures.push(`no answer: ${String(error)}`);
          throw error;
        }
        let retryAfterSeconds: unknown;
        if (response.status === 429) {
          retryAfterSeconds = ((await response.clone().json()) as { retryAfterSeconds?: unknown })
            .retryAfterSeconds;
        }
        answers.push({
          status: response.status,
          retryAfterHeader: response.headers.get("retry-after"),
          retryAfterSeconds,
        });
        return response;
      };
      const client = createClient({
        apiKey: server.keys.public,
        baseUrl: server.baseUrl,
        fetch: recordingFetch,
        multipartThreshold: 5 * MIB,
        // Enough retries to outlast a rate-limit window several times over.
        maxRetries: 20,
        maxRetryDelay: RATE_LIMIT.windowMs,
      });

      const deadline = Date.now() + DURATION_MS;
      const uploadMs: number[] = [];
      const uploaded: string[] = [];
      let sequence = 0;
      const worker = async () => {
        while (Date.now() < deadline) {
          const n = sequence++;
          const multipart = n % 20 === 19;
          const bytes = patternBytes(n, multipart ? 6 * MIB : 32 * KIB);
          const t0 = Date.now();
          try {
            const result = await client.upload(bytes, {
              fileName: `load-${n}.bin`,
              contentType: "application/octet-stream",
            });
            uploadMs.push(Date.now() - t0);
            uploaded.push(result.file_no);
          } catch (error) {
            failures.push(`upload ${n}: ${String(error)}`);
          }
        }
      };
      const listMs: number[] = [];
      const listStatuses: Record<number, number> = {};
      const lister = async () => {
        while (Date.now() < deadline) {
          const t0 = Date.now();
          const list = await api(server.baseUrl, server.keys.private, "GET", "/api/v1/files?limit=25");
          listMs.push(Date.now() - t0);
          listStatuses[list.status] = (listStatuses[list.status] ?? 0) + 1;
          if (list.status === 429) {
            const body = list.body as { retryAfterSeconds?: unknown };
            answers.push({ status: 429, retryAfterHeader: null, retryAfterSeconds: body.retryAfterSeconds });
          } else if (list.status !== 200) failures.push(`list: ${list.status} ${list.text.slice(0, 200)}`);
          await new Promise((r) => setTimeout(r, LIST_INTERVAL_MS));
        }
      };
      const started = Date.now();
      await Promise.all([...Array.from({ length: WORKERS }, worker), lister()]);
      const elapsedS = (Date.now() - started) / 1000;

      const statuses: Record<number, number> = {};
      for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const unexpected = answers.filter((a) => !(a.status < 300 || a.status === 429));
      const badRetryAfter = answers.filter(
        (a) =>
          a.status === 429 &&
          !(
            Number.isInteger(a.retryAfterSeconds) &&
            (a.retryAfterSeconds as number) >= 1 &&
            (a.retryAfterSeconds as number) <= Math.ceil(RATE_LIMIT.windowMs / 1000) &&
            (a.retryAfterHeader === null || a.retryAfterHeader === String(a.retryAfterSeconds))
          ),
      );
      // Every upload the SDK reported is in the workspace.
      let listedTotal = -1;
      for (let attempt = 0; attempt < 10 && listedTotal < 0; attempt += 1) {
        const list = await api(server.baseUrl, server.keys.private, "GET", "/api/v1/files?limit=1");
        if (list.status === 200) listedTotal = (list.body as { meta: { total: number } }).meta.total;
        else await new Promise((r) => setTimeout(r, RATE_LIMIT.windowMs));
      }

      reportFigures("load", {
        profile: PROFILE,
        database: database ? "postgresql" : "pglite",
        workers: WORKERS,
        durationS: Number(elapsedS.toFixed(1)),
        rateLimit: RATE_LIMIT,
        uploads: { ...summary(uploadMs), perSecond: Number((uploadMs.length / elapsedS).toFixed(1)) },
        lists: {
          ...summary(listMs),
          perSecond: Number((listMs.length / elapsedS).toFixed(1)),
          statuses: listStatuses,
        },
        answersSeenBySdk: statuses,
        rateLimited: answers.filter((a) => a.status === 429).length,
        badRetryAfter: badRetryAfter.length,
        failures: failures.slice(0, 10),
        serverErrorsLogged: distinctLoggedErrors(server.output()),
        listedTotal,
      });

      expect(failures).toEqual([]);
      expect(unexpected).toEqual([]);
      expect(badRetryAfter).toEqual([]);
      // The limit was really hit, so the retry path was exercised.
      expect(statuses[429] ?? 0).toBeGreaterThan(0);
      expect(uploaded.length).toBeGreaterThan(WORKERS);
      expect(new Set(uploaded).size).toBe(uploaded.length);
      expect(listedTotal).toBe(uploaded.length);
    },
    DURATION_MS + 240_000,
  );
});
