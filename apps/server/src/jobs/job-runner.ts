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
  /** Wait between polls when the last poll found less than a full batch, ms (1000). */
  pollIntervalMs?: number;
  /** Jobs claimed per poll, run concurrently (10). */
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
 * Polls the `jobs` table and runs due jobs with the handler registered for their kind.
 *
 * Safe with several instances (claims are atomic, see ./job-queue.ts). Delivery is at least once:
 * a worker that dies after doing the work but before recording it leaves the job to be run again
 * when its lock expires, so handlers must tolerate repeats (webhooks carry a stable `webhook-id`).
 */
export class JobRunner {
  readonly workerId: string;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly lockMs: number;
  private readonly backoff: BackoffOptions;
  private readonly logger: JobRunnerLogger;
  private readonly random: () => number;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;

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

  /** Registers the handler of a job kind (one per kind). */
  register<P>(kind: string, handler: JobHandler<P>): this {
    if (this.handlers.has(kind)) throw new Error(`A handler for job kind "${kind}" is already registered`);
    this.handlers.set(kind, handler as JobHandler);
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
  }

  /**
   * Polls now instead of at the next interval: a job was just enqueued on this instance (a video
   * render a client is waiting for). A poll under way is left to finish; the next one follows it.
   */
  wake(): void {
    if (!this.running || this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.current = this.tick();
  }

  /** Claims one batch and runs it to the end. Returns how many jobs were claimed. */
  async runOnce(): Promise<number> {
    const jobs = await claimJobs(this.db, {
      workerId: this.workerId,
      kinds: [...this.handlers.keys()],
      limit: this.batchSize,
      lockMs: this.lockMs,
    });
    await Promise.all(jobs.map((job) => this.run(job)));
    return jobs.length;
  }

  private async tick(): Promise<void> {
    let claimed = 0;
    try {
      claimed = await this.runOnce();
    } catch (error) {
      this.logger.error({ err: error, workerId: this.workerId }, "job runner: polling failed");
    }
    if (!this.running) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.current = this.tick();
      },
      claimed >= this.batchSize ? 0 : this.pollIntervalMs,
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
