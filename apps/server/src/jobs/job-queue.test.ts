// The durable queue on a real database: PGlite in memory with the project's migrations applied.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../db/database.js";
import { claimJobs, completeJob, enqueueJob, failJob, retryJob } from "./job-queue.js";
import { backoffDelayMs, JobPool, JobRunner, PermanentJobError } from "./job-runner.js";

let db: Database;

beforeAll(async () => {
  db = await openDatabase({ kind: "pglite", dataDir: null });
  await db.migrate();
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  await db.prisma.job.deleteMany();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("claimJobs", () => {
  it("claims due jobs of the given kinds, oldest first, and marks them running", async () => {
    const a = await enqueueJob(db.prisma, {
      kind: "a",
      payload: { n: 1 },
      runAt: new Date(Date.now() - 2000),
    });
    const b = await enqueueJob(db.prisma, {
      kind: "a",
      payload: { n: 2 },
      runAt: new Date(Date.now() - 1000),
    });
    await enqueueJob(db.prisma, { kind: "a", payload: { n: 3 }, runAt: new Date(Date.now() + 60_000) });
    await enqueueJob(db.prisma, { kind: "other", payload: {} });

    const claimed = await claimJobs(db.prisma, { workerId: "w1", kinds: ["a"], limit: 10, lockMs: 60_000 });
    expect(claimed.map((j) => j.id)).toEqual([a.id, b.id]);
    expect(claimed[0]).toMatchObject({ kind: "a", payload: { n: 1 }, attempts: 1, maxAttempts: 10 });
    const row = await db.prisma.job.findUniqueOrThrow({ where: { id: a.id } });
    expect(row).toMatchObject({ status: "running", lockedBy: "w1", attempts: 1 });
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 30_000);

    // Nothing is due any more: claimed rows are not claimed twice.
    expect(await claimJobs(db.prisma, { workerId: "w2", kinds: ["a"], limit: 10, lockMs: 60_000 })).toEqual(
      [],
    );
  });

  it("respects the limit and hands disjoint sets to concurrent claimers", async () => {
    for (let i = 0; i < 12; i++) await enqueueJob(db.prisma, { kind: "k", payload: { i } });
    const batches = await Promise.all(
      ["w1", "w2", "w3", "w4"].map((workerId) =>
        claimJobs(db.prisma, { workerId, kinds: ["k"], limit: 5, lockMs: 60_000 }),
      ),
    );
    const ids = batches.flat().map((j) => j.id);
    expect(batches.every((batch) => batch.length <= 5)).toBe(true);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it("takes over a running job whose lock expired (its worker died), counting the attempt", async () => {
    const job = await enqueueJob(db.prisma, { kind: "k", payload: {} });
    await claimJobs(db.prisma, { workerId: "dead", kinds: ["k"], limit: 1, lockMs: 1 });
    await sleep(20);
    const [again] = await claimJobs(db.prisma, { workerId: "alive", kinds: ["k"], limit: 1, lockMs: 60_000 });
    expect(again).toMatchObject({ id: job.id, attempts: 2 });
    // The dead worker's late result is ignored: it no longer holds the lock.
    expect(await completeJob(db.prisma, job.id, "dead")).toBe(false);
    expect(await completeJob(db.prisma, job.id, "alive")).toBe(true);
    expect((await db.prisma.job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("succeeded");
  });

  it("records retries on the database clock and failures with their error", async () => {
    const job = await enqueueJob(db.prisma, { kind: "k", payload: {} });
    await claimJobs(db.prisma, { workerId: "w", kinds: ["k"], limit: 1, lockMs: 60_000 });
    expect(await retryJob(db.prisma, job.id, "w", "boom", 60_000)).toBe(true);
    let row = await db.prisma.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ status: "pending", lastError: "boom", lockedBy: null, lockedUntil: null });
    expect(row.runAt.getTime() - row.updatedAt.getTime()).toBeGreaterThanOrEqual(59_000);
    expect(await claimJobs(db.prisma, { workerId: "w", kinds: ["k"], limit: 1, lockMs: 60_000 })).toEqual([]);

    await db.prisma.job.update({ where: { id: job.id }, data: { runAt: new Date(Date.now() - 1) } });
    await claimJobs(db.prisma, { workerId: "w", kinds: ["k"], limit: 1, lockMs: 60_000 });
    expect(await failJob(db.prisma, job.id, "w", "x".repeat(5_000))).toBe(true);
    row = await db.prisma.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(2);
    expect(row.lastError!.length).toBeLessThanOrEqual(2_000);
  });

  it("enqueues inside an interactive transaction, committing with it", async () => {
    await db.prisma.$transaction(async (tx) => {
      await enqueueJob(tx, { kind: "k", payload: { in: "tx" } });
    });
    await expect(
      db.prisma.$transaction(async (tx) => {
        await enqueueJob(tx, { kind: "k", payload: { in: "rolled back" } });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    const rows = await db.prisma.job.findMany();
    expect(rows.map((r) => r.payload)).toEqual([{ in: "tx" }]);
  });
});

describe("JobRunner", () => {
  it("runs handlers by kind; success, retry with backoff, permanent failure and max attempts", async () => {
    const ok = await enqueueJob(db.prisma, { kind: "ok", payload: {} });
    const flaky = await enqueueJob(db.prisma, { kind: "flaky", payload: {} });
    const fatal = await enqueueJob(db.prisma, { kind: "fatal", payload: {} });
    const hopeless = await enqueueJob(db.prisma, { kind: "hopeless", payload: {}, maxAttempts: 2 });
    const unhandled = await enqueueJob(db.prisma, { kind: "not-mine", payload: {} });
    let flakyCalls = 0;
    const runner = new JobRunner(db.prisma, {
      backoff: { baseMs: 1, factor: 1, jitter: 0 },
      handlers: {
        ok: async () => {},
        flaky: async () => {
          flakyCalls += 1;
          if (flakyCalls < 3) throw new Error(`flaky ${flakyCalls}`);
        },
        fatal: async () => {
          throw new PermanentJobError("cannot ever work");
        },
        hopeless: async () => {
          throw new Error("still down");
        },
      },
    });
    for (let pass = 0; pass < 20; pass++) {
      if ((await runner.runOnce()) === 0 && flakyCalls >= 3) break;
      await sleep(5);
    }
    const status = async (id: string) => db.prisma.job.findUniqueOrThrow({ where: { id } });
    expect(await status(ok.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await status(flaky.id)).toMatchObject({ status: "succeeded", attempts: 3, lastError: null });
    expect(await status(fatal.id)).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: "cannot ever work",
    });
    expect(await status(hopeless.id)).toMatchObject({
      status: "failed",
      attempts: 2,
      lastError: "still down",
    });
    expect(await status(unhandled.id)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("fails a job whose last attempt never finished instead of running it again", async () => {
    const job = await enqueueJob(db.prisma, { kind: "k", payload: {}, maxAttempts: 1 });
    await claimJobs(db.prisma, { workerId: "dead", kinds: ["k"], limit: 1, lockMs: 1 });
    await sleep(20);
    let ran = false;
    const runner = new JobRunner(db.prisma, {
      handlers: {
        k: async () => {
          ran = true;
        },
      },
    });
    await runner.runOnce();
    expect(ran).toBe(false);
    expect(await db.prisma.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "failed",
      lastError: "the last attempt did not finish (worker lost its lock)",
    });
  });

  it("start() polls until stop(), which waits for the job in progress", async () => {
    let finished = 0;
    const runner = new JobRunner(db.prisma, {
      pollIntervalMs: 5,
      handlers: {
        slow: async () => {
          await sleep(50);
          finished += 1;
        },
      },
    });
    runner.start();
    runner.start(); // idempotent
    await enqueueJob(db.prisma, { kind: "slow", payload: {} });
    for (let i = 0; i < 200 && (await db.prisma.job.count({ where: { status: "running" } })) === 0; i++) {
      await sleep(5);
    }
    await runner.stop();
    expect(finished).toBe(1);
    expect(await db.prisma.job.count({ where: { status: "succeeded" } })).toBe(1);
  });

  it("wake() polls at once instead of at the next interval, and never runs two polls at a time", async () => {
    const ran: string[] = [];
    const runner = new JobRunner(db.prisma, {
      pollIntervalMs: 3_600_000,
      handlers: { now: async (job) => void ran.push(job.id) },
    });
    runner.start();
    // Let the first (empty) poll finish, so the runner waits an hour for the next.
    for (let i = 0; i < 200 && (runner as unknown as { timer?: unknown }).timer === undefined; i++)
      await sleep(5);
    const job = await enqueueJob(db.prisma, { kind: "now", payload: {} });
    runner.wake();
    runner.wake(); // a poll is under way: nothing more
    for (let i = 0; i < 400 && ran.length === 0; i++) await sleep(5);
    await runner.stop();
    expect(ran).toEqual([job.id]);
    expect(await db.prisma.job.count({ where: { status: "succeeded" } })).toBe(1);
  });

  it("refuses two handlers for one kind", () => {
    const runner = new JobRunner(db.prisma).register("k", async () => {});
    expect(() => runner.register("k", async () => {})).toThrow(/already registered/);
  });
});

describe("backoffDelayMs", () => {
  it("grows exponentially up to the cap, with bounded jitter", () => {
    const opts = { baseMs: 1000, factor: 3, maxMs: 20_000, jitter: 0.5 };
    expect([1, 2, 3, 4, 5].map((a) => backoffDelayMs(a, opts, () => 1))).toEqual([
      1000, 3000, 9000, 20_000, 20_000,
    ]);
    expect(backoffDelayMs(2, opts, () => 0)).toBe(1500);
    expect(backoffDelayMs(1, { ...opts, jitter: 0 }, () => 0)).toBe(1000);
    expect(backoffDelayMs(1)).toBeGreaterThanOrEqual(5_000);
    expect(backoffDelayMs(1)).toBeLessThanOrEqual(10_000);
  });
});

describe("JobRunner pools and detached jobs", () => {
  it("claims a pooled kind only while its pool has a free slot, so no claimed job waits for one", async () => {
    const pool = new JobPool(1, 60_000);
    let active = 0;
    let peak = 0;
    const release: Array<() => void> = [];
    const runner = new JobRunner(db.prisma, { pollIntervalMs: 5 }).register(
      "transcode",
      async () => {
        active += 1;
        peak = Math.max(peak, active);
        await new Promise<void>((resolve) => release.push(resolve));
        active -= 1;
      },
      { pool },
    );
    for (let i = 0; i < 3; i++) await enqueueJob(db.prisma, { kind: "transcode", payload: {} });
    runner.start();
    for (let i = 0; i < 400 && release.length === 0; i++) await sleep(5);
    // Several polls later, one job runs and the other two are still pending: not claimed and waiting.
    await sleep(50);
    expect(await db.prisma.job.count({ where: { status: "running" } })).toBe(1);
    expect(await db.prisma.job.count({ where: { status: "pending" } })).toBe(2);
    const [claimed] = await db.prisma.job.findMany({ where: { status: "running" } });
    // The pool's claim duration, not the runner's default five minutes.
    expect(claimed?.lockedUntil?.getTime() ?? 0).toBeLessThan(Date.now() + 120_000);
    for (let done = 0; done < 3; done++) {
      for (let i = 0; i < 400 && release.length === 0; i++) await sleep(5);
      release.shift()?.();
    }
    for (let i = 0; i < 400 && (await db.prisma.job.count({ where: { status: "succeeded" } })) < 3; i++)
      await sleep(5);
    await runner.stop();
    expect(peak).toBe(1);
    expect(await db.prisma.job.count({ where: { status: "succeeded" } })).toBe(3);
  });

  it("runs other kinds while a long pooled job holds its slot", async () => {
    let releaseLong: () => void = () => {};
    const quick: string[] = [];
    const runner = new JobRunner(db.prisma, { pollIntervalMs: 5 })
      .register("long", () => new Promise<void>((resolve) => (releaseLong = resolve)), {
        pool: new JobPool(1),
      })
      .register("quick", async (job) => void quick.push(job.id));
    await enqueueJob(db.prisma, { kind: "long", payload: {} });
    runner.start();
    for (let i = 0; i < 400 && (await db.prisma.job.count({ where: { status: "running" } })) === 0; i++)
      await sleep(5);
    const later = await enqueueJob(db.prisma, { kind: "quick", payload: {} });
    for (let i = 0; i < 400 && quick.length === 0; i++) await sleep(5);
    // The quick job ran to the end while the long one still runs.
    expect(quick).toEqual([later.id]);
    expect(await db.prisma.job.count({ where: { kind: "long", status: "running" } })).toBe(1);
    releaseLong();
    await runner.stop();
    expect(await db.prisma.job.count({ where: { status: "succeeded" } })).toBe(2);
  });

  it("stop() waits for detached jobs still running", async () => {
    let finished = false;
    const runner = new JobRunner(db.prisma, { pollIntervalMs: 5 }).register("slow", async () => {
      await sleep(80);
      finished = true;
    });
    await enqueueJob(db.prisma, { kind: "slow", payload: {} });
    runner.start();
    for (let i = 0; i < 400 && (await db.prisma.job.count({ where: { status: "running" } })) === 0; i++)
      await sleep(5);
    await runner.stop();
    expect(finished).toBe(true);
    expect(await db.prisma.job.count({ where: { status: "succeeded" } })).toBe(1);
  });
});
