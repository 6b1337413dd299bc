/**
 * Background workers of one server instance: a `JobRunner` over the durable `jobs` table, started
 * when the app is ready and stopped (waiting for jobs in progress) when it closes.
 *
 *   createJobRunner({ db, storage, config, log });   // src/services.ts: `app.jobRunner`
 *   await app.register(workersPlugin);               // in buildApp, after the routes
 *   app.jobRunner?.register("multipart.expire", handler);   // other kinds share the runner
 *
 * Runs only when `config.workers` is true: `loadConfig` turns it on (TROVE_WORKERS, default true),
 * tests leave it off (`resolveConfig` default false) and drive a runner of their own
 * (`createJobRunner(t.app)`: the app carries every field of JobRunnerDeps), or turn it on.
 * `app.jobRunner` exists either way (null when off) so other plugins can register handlers.
 *
 * Handlers registered here:
 * - `webhook`: signed deliveries (src/webhooks). Signed with the workspace's webhook secret
 *   (and the previous one during a rotation's grace), decrypted with TROVE_SECRET_KEY; a deleted
 *   workspace fails the job. Trusted ranges, the
 *   attempt timeout and the test resolver/connector come from the config.
 * - `storage.delete-objects`: removal of a deleted file's objects (src/files/delete-objects-job.ts).
 * - `workspace.delete`: a forced workspace delete's rows, in batches (src/admin/delete-workspace.ts).
 * - `video.render`: a video transform's output or a streaming package (src/video/
 *   render-video-job.ts), in a JobPool of `config.video.concurrency` slots: claimed only when
 *   one is free, so a claimed render never waits while its lock runs out.
 *
 * Beside the runner, the sweep of expired multipart sessions and orphaned objects runs on this
 * instance's own timer every `config.multipart.sweepIntervalMs` (src/multipart/sweep-timer.ts),
 * and so, on a timer of its own with the same interval, does the deletion of jobs finished more
 * than `config.jobRetentionMs` ago (./job-retention.ts). The deletion of temporary files past
 * their `expires_at` runs on a third timer, every `config.fileExpirySweepIntervalMs`
 * (src/files/expire-files.ts). With TROVE_PLACEHOLDERS on, a fourth timer, every
 * `config.jobPollIntervalMs`, computes the placeholders of new images (src/placeholders/
 * placeholder-sweep.ts says why a sweep of the files table rather than a job per upload).
 */
import type { FastifyBaseLogger } from "fastify";
import fp from "fastify-plugin";
import { createDeleteWorkspaceHandler, DELETE_WORKSPACE_JOB_KIND } from "../admin/delete-workspace.js";
import type { ServerConfig } from "../config.js";
import { createDeleteObjectsHandler, DELETE_OBJECTS_JOB_KIND } from "../files/delete-objects-job.js";
import { sweepExpiredFiles } from "../files/expire-files.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import { sweepExpiredSessions } from "../multipart/sweep-sessions.js";
import { type SweepTimer, startSweepTimer } from "../multipart/sweep-timer.js";
import { sweepPlaceholders } from "../placeholders/placeholder-sweep.js";
import type { StorageDriver } from "../storage/driver.js";
import { createRenderVideoHandler } from "../video/render-video-job.js";
import { VIDEO_RENDER_JOB_KIND } from "../video/video-output-rows.js";
import { createWebhookHandler, WEBHOOK_JOB_KIND } from "../webhooks/delivery.js";
import { signingSecrets } from "../webhooks/workspace-secrets.js";
import { recordJobResponseStatus } from "./job-queue.js";
import { sweepFinishedJobs } from "./job-retention.js";
import { JobPool, JobRunner } from "./job-runner.js";

/** A render's claim beyond ffmpeg's own time limit: reading the original and storing the output. */
const VIDEO_IO_ALLOWANCE_MS = 5 * 60_000;

/** What the runner and its built-in handlers read. */
export interface JobRunnerDeps {
  db: PrismaClient;
  storage: StorageDriver;
  config: Pick<
    ServerConfig,
    | "jobPollIntervalMs"
    | "secretKey"
    | "trustedRanges"
    | "webhooks"
    | "outbound"
    | "video"
    | "mediaLimits"
    | "dataDir"
    | "delivery"
  >;
  log: FastifyBaseLogger;
}

/** A runner with every built-in handler registered (not started). */
export function createJobRunner({ db, storage, config, log }: JobRunnerDeps): JobRunner {
  const runner = new JobRunner(db, {
    pollIntervalMs: config.jobPollIntervalMs,
    logger: log,
  });
  runner.register(
    WEBHOOK_JOB_KIND,
    createWebhookHandler({
      resolveSecrets: (workspaceId) => signingSecrets(db, config.secretKey, workspaceId),
      // Bookkeeping only: a failed write must not fail the attempt (that would send it again).
      recordResponseStatus: (jobId, status) =>
        recordJobResponseStatus(db, jobId, status).catch((error: unknown) => {
          log.warn({ err: error, jobId }, "webhook response status not recorded");
        }),
      trustedRanges: config.trustedRanges,
      timeoutMs: config.webhooks.timeoutMs,
      maxAttempts: config.webhooks.maxAttempts,
      ...(config.outbound?.lookup ? { lookup: config.outbound.lookup } : {}),
      ...(config.outbound?.connect ? { connect: config.outbound.connect } : {}),
    }),
  );
  runner.register(DELETE_OBJECTS_JOB_KIND, createDeleteObjectsHandler({ db, storage }));
  runner.register(DELETE_WORKSPACE_JOB_KIND, createDeleteWorkspaceHandler(db));
  // ffmpeg takes every core it is given and hundreds of MiB: TROVE_VIDEO_CONCURRENCY renders at
  // once, each claimed for its time limit plus the reading of its input and writing of its output.
  runner.register(VIDEO_RENDER_JOB_KIND, createRenderVideoHandler({ db, storage, config, log }), {
    pool: new JobPool(config.video.concurrency, config.video.timeoutMs + VIDEO_IO_ALLOWANCE_MS),
  });
  return runner;
}

/**
 * When `app.jobRunner` is set (workers on): starts it and the sweep timers on ready, and stops
 * them on close.
 */
export const workersPlugin = fp(
  async (app) => {
    const runner = app.jobRunner;
    if (!runner) return;
    const { config, log, db } = app;
    let sweeper: SweepTimer | undefined;
    let retention: SweepTimer | undefined;
    let expiry: SweepTimer | undefined;
    let placeholders: SweepTimer | undefined;
    app.addHook("onReady", async () => {
      runner.start();
      expiry = startSweepTimer({
        intervalMs: config.fileExpirySweepIntervalMs,
        run: () => sweepExpiredFiles({ db, storage: app.storage, log }),
        onError: (error) =>
          log.warn({ err: error }, "temporary file sweep failed; it runs again next interval"),
      });
      if (config.placeholders) {
        placeholders = startSweepTimer({
          intervalMs: config.jobPollIntervalMs,
          run: () =>
            sweepPlaceholders({
              db,
              storage: app.storage,
              limits: config.mediaLimits,
              // Not delivery's render gate: the sweep decodes one image at a time by itself, and
              // background work must never take a slot from a render someone is waiting for.
              log,
            }),
          onError: (error) =>
            log.warn({ err: error }, "placeholder sweep failed; it runs again next interval"),
        });
      }
      retention = startSweepTimer({
        intervalMs: config.multipart.sweepIntervalMs,
        run: () => sweepFinishedJobs(db, config.jobRetentionMs),
        onError: (error) =>
          log.warn({ err: error }, "job retention sweep failed; it runs again next interval"),
      });
      sweeper = startSweepTimer({
        intervalMs: config.multipart.sweepIntervalMs,
        run: () => sweepExpiredSessions(app.multipartDeps),
        onError: (error) => log.warn({ err: error }, "multipart sweep failed; it runs again next interval"),
      });
    });
    // preClose: before the database plugin's onClose closes the client under the runner.
    app.addHook("preClose", async () => {
      await Promise.all([
        runner.stop(),
        sweeper?.stop(),
        retention?.stop(),
        expiry?.stop(),
        placeholders?.stop(),
      ]);
    });
  },
  { name: "trove-workers", fastify: "5.x" },
);
