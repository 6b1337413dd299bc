/**
 * Background workers of one server instance: a `JobRunner` over the durable `jobs` table, started
 * when the app is ready and stopped (waiting for jobs in progress) when it closes.
 *
 *   setupWorkers(app);          // in buildApp, after the routes; before ready()
 *   app.jobRunner?.register("multipart.expire", handler);   // other kinds share the runner
 *
 * Runs only when `config.workers` is true: `loadConfig` turns it on (TROVE_WORKERS, default true),
 * tests leave it off (`resolveConfig` default false) and drive the runner themselves, or turn it
 * on. `app.jobRunner` exists either way (null when off) so other plugins can register handlers.
 *
 * Handlers registered here:
 * - `webhook`: signed deliveries (src/webhooks). Signed with the workspace's webhook secret
 *   (and the previous one during a rotation's grace), decrypted with TROVE_SECRET_KEY; a deleted
 *   workspace fails the job. Trusted ranges, the
 *   attempt timeout and the test resolver/connector come from the config.
 * - `storage.delete-objects`: removal of a deleted file's objects (src/files/delete-objects-job.ts).
 * - `workspace.delete`: a forced workspace delete's rows, in batches (src/admin/delete-workspace.ts).
 *
 * Beside the runner, the sweep of expired multipart sessions and orphaned objects runs on this
 * instance's own timer every `config.multipart.sweepIntervalMs` (src/multipart/sweep-timer.ts),
 * and so, on a timer of its own with the same interval, does the deletion of jobs finished more
 * than `config.jobRetentionMs` ago (./job-retention.ts).
 */
import type { FastifyInstance } from "fastify";
import { createDeleteWorkspaceHandler, DELETE_WORKSPACE_JOB_KIND } from "../admin/delete-workspace.js";
import { createDeleteObjectsHandler, DELETE_OBJECTS_JOB_KIND } from "../files/delete-objects-job.js";
import { sweepExpiredSessions } from "../multipart/sweep-sessions.js";
import { type SweepTimer, startSweepTimer } from "../multipart/sweep-timer.js";
import { createWebhookHandler, WEBHOOK_JOB_KIND } from "../webhooks/delivery.js";
import { signingSecrets } from "../webhooks/workspace-secrets.js";
import { sweepFinishedJobs } from "./job-retention.js";
import { JobRunner } from "./job-runner.js";

/** A runner with every built-in handler registered (not started). */
export function createJobRunner(app: FastifyInstance): JobRunner {
  const { config } = app;
  const runner = new JobRunner(app.db, {
    pollIntervalMs: config.jobPollIntervalMs,
    logger: app.log,
  });
  runner.register(
    WEBHOOK_JOB_KIND,
    createWebhookHandler({
      resolveSecrets: (workspaceId) => signingSecrets(app.db, config.secretKey, workspaceId),
      trustedRanges: config.trustedRanges,
      timeoutMs: config.webhooks.timeoutMs,
      maxAttempts: config.webhooks.maxAttempts,
      ...(config.outbound?.lookup ? { lookup: config.outbound.lookup } : {}),
      ...(config.outbound?.connect ? { connect: config.outbound.connect } : {}),
    }),
  );
  runner.register(DELETE_OBJECTS_JOB_KIND, createDeleteObjectsHandler({ db: app.db, storage: app.storage }));
  runner.register(DELETE_WORKSPACE_JOB_KIND, createDeleteWorkspaceHandler(app.db));
  return runner;
}

/** Decorates `app.jobRunner` and, when workers are on, starts it on ready and stops it on close. */
export function setupWorkers(app: FastifyInstance): void {
  const runner = app.config.workers ? createJobRunner(app) : null;
  app.decorate("jobRunner", runner);
  if (!runner) return;
  let sweeper: SweepTimer | undefined;
  let retention: SweepTimer | undefined;
  app.addHook("onReady", async () => {
    runner.start();
    retention = startSweepTimer({
      intervalMs: app.config.multipart.sweepIntervalMs,
      run: () => sweepFinishedJobs(app.db, app.config.jobRetentionMs),
      onError: (error) =>
        app.log.warn({ err: error }, "job retention sweep failed; it runs again next interval"),
    });
    sweeper = startSweepTimer({
      intervalMs: app.config.multipart.sweepIntervalMs,
      run: () => sweepExpiredSessions(app),
      onError: (error) => app.log.warn({ err: error }, "multipart sweep failed; it runs again next interval"),
    });
  });
  // preClose: before the database plugin's onClose closes the client under the runner.
  app.addHook("preClose", async () => {
    await Promise.all([runner.stop(), sweeper?.stop(), retention?.stop()]);
  });
}
