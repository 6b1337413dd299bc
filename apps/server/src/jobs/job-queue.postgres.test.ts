// Real concurrency on PostgreSQL: two connection pools (two "instances") claiming from one table at
// once. PGlite runs one query at a time, so only a real server exercises FOR UPDATE SKIP LOCKED under
// contention. Runs when TROVE_TEST_DATABASE_URL names a PostgreSQL database (on this machine, e.g.
// postgres://user@127.0.0.1:5432/trove_test); skipped otherwise. Jobs use a kind unique to the run, so
// other suites sharing the database are not disturbed.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../db/database.js";
import { claimJobs, enqueueJob } from "./job-queue.js";
import { JobRunner } from "./job-runner.js";

const url = process.env.TROVE_TEST_DATABASE_URL;

describe("job queue on PostgreSQL (TROVE_TEST_DATABASE_URL)", () => {
  let first: Database;
  let second: Database;
  const kind = `pgtest-${randomBytes(4).toString("hex")}`;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  // A database of its own, so the suite neither needs nor disturbs anything in the admin one.
  const dbName = `trove_test_jobs_${randomBytes(4).toString("hex")}`;
  const dbUrl = () => {
    const u = new URL(url!);
    u.pathname = `/${dbName}`;
    return u.toString();
  };
  const admin = async (sql: string) => {
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    await admin(`CREATE DATABASE "${dbName}"`);
    first = await openDatabase({ kind: "postgres", url: dbUrl() });
    second = await openDatabase({ kind: "postgres", url: dbUrl() });
    await first.migrate();
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  });

  it("concurrent claims from two pools are disjoint", async () => {
    const k = `${kind}-claims`;
    for (let i = 0; i < 60; i++) await enqueueJob(first.prisma, { kind: k, payload: { i } });
    const claimers = Array.from({ length: 12 }, (_, i) =>
      claimJobs(i % 2 === 0 ? first.prisma : second.prisma, {
        workerId: `w${i}`,
        kinds: [k],
        limit: 7,
        lockMs: 60_000,
      }),
    );
    const ids = (await Promise.all(claimers)).flat().map((job) => job.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });

  it("two runners on two pools run every job exactly once", async () => {
    const k = `${kind}-runners`;
    const count = 120;
    for (let i = 0; i < count; i++) await enqueueJob(first.prisma, { kind: k, payload: { i } });
    const seen: Array<{ runner: string; i: number }> = [];
    const handler = (runner: string) => async (job: { payload: unknown }) => {
      await sleep(Math.random() * 5);
      seen.push({ runner, i: (job.payload as { i: number }).i });
    };
    const a = new JobRunner(first.prisma, { workerId: "a", pollIntervalMs: 2, batchSize: 4 }).register(
      k,
      handler("a"),
    );
    const b = new JobRunner(second.prisma, { workerId: "b", pollIntervalMs: 2, batchSize: 4 }).register(
      k,
      handler("b"),
    );
    a.start();
    b.start();
    for (let i = 0; i < 1000 && seen.length < count; i++) await sleep(10);
    await Promise.all([a.stop(), b.stop()]);
    expect(seen).toHaveLength(count);
    expect(new Set(seen.map((s) => s.i)).size).toBe(count);
    expect(seen.some((s) => s.runner === "a")).toBe(true);
    expect(seen.some((s) => s.runner === "b")).toBe(true);
    expect(await first.prisma.job.count({ where: { kind: k, status: "succeeded", attempts: 1 } })).toBe(
      count,
    );
  });
});
