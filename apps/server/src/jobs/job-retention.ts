/**
 * Retention of the `jobs` table: succeeded and failed jobs of every kind are deleted once they
 * have been finished for TROVE_JOB_RETENTION_HOURS (a week by default), long enough to inspect
 * failed webhook deliveries (`trove-server webhooks deliveries`), short enough that the table does
 * not grow forever. Pending and running jobs are never touched.
 *
 * Runs on the workers' sweep clock (./start-workers.ts), in batches so that a large backlog, say
 * after raising the retention, is deleted in several short statements rather than one long one.
 */
import { deleteFinishedJobs, type JobDb } from "./job-queue.js";

const BATCH = 10_000;
/** Batches per sweep: the rest waits for the next sweep. */
const MAX_BATCHES = 20;

/** Deletes jobs finished more than `retentionMs` ago. Returns how many. */
export async function sweepFinishedJobs(db: JobDb, retentionMs: number): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const deleted = await deleteFinishedJobs(db, { olderThanMs: retentionMs, limit: BATCH });
    total += deleted;
    if (deleted < BATCH) break;
  }
  return total;
}
