import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { type ClaimedJob, claimJobs, completeJob, failJob, type JobDb, retryJob } from "./job-queue.js";

/** Runs one job. Resolve = success; throw = retry with backoff (or `failed` after the last attempt). */
export type JobHandler<P = unknown> = (job: ClaimedJob<P>) => Promise<void>;

/** Throw from a handler when retrying cannot help (the job is marked `failed` at once). */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

export interface BackoffOptions {
  /** Delay after the first failed attempt, ms (10 s). */
  baseMs?: number;
  /** Growth per attempt (3): 10 s, 30 s, 90 s, 4.5 min, 13.5 min, 40 min, 2 h, 6 h, 6 h... */
  factor?: number;
  /** Upper bound, ms (6 h). */
  maxMs?: number;
  /** Share of the delay that is random, 0..1 (0.5: each delay is 50 to 100 % of the nominal one). */
  jitter?: number;
}

export interface JobRunnerLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface JobRunnerOptions {
  /** Written to `locked_by` (default `<host>:<pid>:<random>`). */
  workerId?: string;
  /** Wait between polls, ms (1000); a finished job or `wake()` polls sooner. */
  pollIntervalMs?: number;
  /** Jobs of kinds without a pool running at once (10). */
  batchSize?: number;
  /** Claim duration, ms (5 min); a handler must finish well within it. */
  lockMs?: number;
  backoff?: BackoffOptions;
  handlers?: Record<string, JobHandler>;
  logger?: JobRunnerLogger;
  /** Source of jitter (tests). */
  random?: () => number;
}

const DEFAULT_BACKOFF: Required<BackoffOptions> = {
  baseMs: 10_000,
  factor: 3,
  maxMs: 6 * 3600_000,
  jitter: 0.5,
};

/** Nominal delay before attempt `attempts + 1`, jitter applied. */
export function backoffDelayMs(
  attempts: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
) {
  const { baseMs, factor, maxMs, jitter } = { ...DEFAULT_BACKOFF, ...options };
  const nominal = Math.min(maxMs, baseMs * factor ** Math.max(0, attempts - 1));
  const share = Math.min(1, Math.max(0, jitter));
  return Math.round(nominal * (1 - share + share * random()));
}

const silentLogger: JobRunnerLogger = { warn() {}, error() {} };

/**
 * A bound on the jobs of one or more kinds running at once on this instance (e.g. transcodes:
 * ffmpeg takes every core and hundreds of MiB). The runner claims a pooled kind only while the pool
 * has a free slot, so a claimed job never waits for a slot while its lock runs out (another
 * instance would take it over and do the same work twice). `lockMs` replaces the runner's claim
 * duration for the pool's jobs: it must exceed their own time limit.
 */
export class JobPool {
  running = 0;
  constructor(
    readonly limit: number,
    readonly lockMs?: number,
  ) {}

  get free(): number {
    return Math.max(0, Math.max(1, this.limit) - this.running);
  }
}

export interface JobKindOptions {
  pool?: JobPool;
}

/**
 * Polls the `jobs` table and runs due jobs with the handler registered for their kind.
 *
 * Safe with several instances (claims are atomic, see ./job-queue.ts). Delivery is at least once:
 * a worker that dies after doing the work but before recording it leaves the job to be run again
 * when its lock expires, so handlers must tolerate repeats (webhooks carry a stable `webhook-id`).
 *
 * Jobs run detached from the poll: a poll claims what free slots allow (`batchSize` for kinds
 * without a pool, each pool's free slots for its kinds) and a finished job makes room for the next
 * poll at once, so a ten-minute transcode never holds up a webhook behind it.
 */
export class JobRunner {
  readonly workerId: string;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly pools = new Map<string, JobPool>();
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly lockMs: number;
  private readonly backoff: BackoffOptions;
  private readonly logger: JobRunnerLogger;
  private readonly random: () => number;
  private readonly inFlight = new Set<Promise<void>>();
  private unpooledRunning = 0;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  /** A wake or a finished job arrived while a poll was under way: poll again right after it. */
  private pollAgain = false;

  constructor(
    private readonly db: JobDb,
    options: JobRunnerOptions = {},
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.batchSize = options.batchSize ?? 10;
    this.lockMs = options.lockMs ?? 5 * 60_000;
    this.backoff = options.backoff ?? {};
    this.logger = options.logger ?? silentLogger;
    this.random = options.random ?? Math.random;
    for (const [kind, handler] of Object.entries(options.handlers ?? {})) this.register(kind, handler);
  }

  /** Registers the handler of a job kind (one per kind), optionally bounded by a pool. */
  register<P>(kind: string, handler: JobHandler<P>, options: JobKindOptions = {}): this {
    if (this.handlers.has(kind)) throw new Error(`A handler for job kind "${kind}" is already registered`);
    this.handlers.set(kind, handler as JobHandler);
    if (options.pool) this.pools.set(kind, options.pool);
    return this;
  }

  /** Starts polling. Idempotent. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.current = this.tick();
  }

  /** Stops polling and waits for the jobs in progress to finish and be recorded. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.current;
    await Promise.all(this.inFlight);
  }

  /**
   * Polls now instead of at the next interval: a job was just enqueued on this instance (a video
   * render a client is waiting for), or one finished and freed its slot. A poll under way is left
   * to finish; another follows it at once.
   */
  wake(): void {
    if (!this.running) return;
    if (this.timer === undefined) {
      this.pollAgain = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.current = this.tick();
  }

  /** Claims what the free slots allow and runs those jobs to the end. Returns how many were claimed. */
  async runOnce(): Promise<number> {
    const jobs = await this.claim();
    await Promise.all(jobs.map((job) => this.track(job)));
    return jobs.length;
  }

  /** One claim per pool with free slots, and one for the kinds without a pool. */
  private async claim(): Promise<ClaimedJob[]> {
    const groups = new Map<JobPool | undefined, string[]>();
    for (const kind of this.handlers.keys()) {
      const pool = this.pools.get(kind);
      groups.set(pool, [...(groups.get(pool) ?? []), kind]);
    }
    const claimed: ClaimedJob[] = [];
    for (const [pool, kinds] of groups) {
      const limit = pool ? pool.free : this.batchSize - this.unpooledRunning;
      if (limit <= 0) continue;
      const jobs = await claimJobs(this.db, {
        workerId: this.workerId,
        kinds,
        limit,
        lockMs: pool?.lockMs ?? this.lockMs,
      });
      // Counted at once, so the next group's claim and the next poll see the slots taken.
      for (const job of jobs) this.reserve(job);
      claimed.push(...jobs);
    }
    return claimed;
  }

  private reserve(job: ClaimedJob): void {
    const pool = this.pools.get(job.kind);
    if (pool) pool.running += 1;
    else this.unpooledRunning += 1;
  }

  private release(job: ClaimedJob): void {
    const pool = this.pools.get(job.kind);
    if (pool) pool.running -= 1;
    else this.unpooledRunning -= 1;
  }

  /** Runs a claimed (and reserved) job; its slot is freed when its outcome is recorded. */
  private track(job: ClaimedJob): Promise<void> {
    const done = this.run(job).finally(() => {
      this.release(job);
      this.inFlight.delete(done);
      this.wake();
    });
    this.inFlight.add(done);
    return done;
  }

  private async tick(): Promise<void> {
    try {
      for (const job of await this.claim()) void this.track(job);
    } catch (error) {
      this.logger.error({ err: error, workerId: this.workerId }, "job runner: polling failed");
    }
    if (!this.running) return;
    const again = this.pollAgain;
    this.pollAgain = false;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.current = this.tick();
      },
      // A job that finishes wakes the runner, so a claim cut short by full slots resumes at once.
      again ? 0 : this.pollIntervalMs,
    );
    this.timer.unref();
  }

  private async run(job: ClaimedJob): Promise<void> {
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) {
        await failJob(this.db, job.id, this.workerId, `no handler for job kind "${job.kind}"`);
        return;
      }
      if (job.attempts > job.maxAttempts) {
        // Only reachable when a worker died during the last attempt and the lock expired.
        await failJob(
          this.db,
          job.id,
          this.workerId,
          "the last attempt did not finish (worker lost its lock)",
        );
        return;
      }
      let outcome: { ok: true } | { ok: false; error: unknown };
      try {
        await handler(job);
        outcome = { ok: true };
      } catch (error) {
        outcome = { ok: false, error };
      }
      if (outcome.ok) {
        if (!(await completeJob(this.db, job.id, this.workerId))) this.lockLost(job);
        return;
      }
      const message = describeError(outcome.error);
      const permanent = outcome.error instanceof PermanentJobError;
      if (permanent || job.attempts >= job.maxAttempts) {
        if (!(await failJob(this.db, job.id, this.workerId, message))) this.lockLost(job);
        this.logger.warn(
          { jobId: job.id, kind: job.kind, attempts: job.attempts, error: message },
          "job failed",
        );
        return;
      }
      const delay = backoffDelayMs(job.attempts, this.backoff, this.random);
      if (!(await retryJob(this.db, job.id, this.workerId, message, delay))) this.lockLost(job);
    } catch (error) {
      // Recording the outcome failed (database down): the lock expires and the job runs again.
      this.logger.error(
        { err: error, jobId: job.id, kind: job.kind },
        "job runner: could not record a job's outcome",
      );
    }
  }

  private lockLost(job: ClaimedJob): void {
    this.logger.warn(
      { jobId: job.id, kind: job.kind },
      "job runner: lock lost before the outcome was recorded",
    );
  }
}

/** An error as recorded in `jobs.last_error`: its message, and its `detail` when it has one. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const detail = (error as { detail?: unknown }).detail;
    return typeof detail === "string" && detail !== "" ? `${error.message} (${detail})` : error.message;
  }
  return String(error);
}
