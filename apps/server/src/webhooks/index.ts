/**
 * Signed webhook delivery from a durable job queue.
 *
 * ## API
 *
 * ```ts
 * // Routes (direct and remote upload), never waiting on delivery:
 * checkWebhookUrl(url, { trustedRanges? }): URL              // validate webhook_url up front; throws RemoteFetchError 400
 * fileUploadedEvent(data, at = new Date()): WebhookEvent     // { type: "file.uploaded", timestamp: ISO, data }
 * enqueueWebhook(db | tx, { workspaceId, url, payload: WebhookEvent, maxAttempts?, trustedRanges? })
 *   : Promise<{ jobId, webhookId }>                           // inserts a `jobs` row, kind "webhook"
 *
 * // Server start-up: one runner per instance, any number of instances.
 * const runner = new JobRunner(prisma, { pollIntervalMs?, batchSize?, lockMs?, backoff?, logger?, workerId? });
 * runner.register(WEBHOOK_JOB_KIND, createWebhookHandler({
 *   resolveSecrets: (workspaceId) => signingSecrets(db, secretKey, workspaceId),  // ["whsec_...", previous?]
 *   trustedRanges: config.trustedRanges, timeoutMs?: 10_000,
 * }));
 * runner.register("multipart-expiry", sweeperHandler);        // other kinds share the runner
 * runner.start();  ...  await runner.stop();                   // stop waits for jobs in progress
 * runner.runOnce(): Promise<number>                            // one claim-and-run pass (tests, CLI)
 *
 * // Building blocks
 * enqueueJob(db | tx, { kind, payload, maxAttempts?, runAt? }): Promise<{ id }>
 * claimJobs(db, { workerId, kinds, limit, lockMs }): Promise<ClaimedJob[]>
 * completeJob / retryJob / failJob(db, id, workerId, ...): Promise<boolean>   // false: lock lost
 * backoffDelayMs(attempts, { baseMs, factor, maxMs, jitter }, random?): number
 * class PermanentJobError extends Error                        // throw from a handler: fail, no retry
 * deliverWebhook({ url, webhookId, event, secrets, timestamp? }, options): Promise<{ status, ok }>
 * signWebhook({ secrets, webhookId, body, timestamp? }): { "webhook-id", "webhook-timestamp", "webhook-signature" }
 * generateWebhookSecret(): string                              // "whsec_" + base64(32 random bytes)
 * ```
 *
 * ## Wire format (Standard Webhooks)
 *
 * `POST <webhook_url>`, `content-type: application/json`, `user-agent: Trove-Webhooks/1.0`, body
 * `{"type":"file.uploaded","timestamp":"<ISO 8601>","data":<the upload response object>}`, headers
 * `webhook-id: msg_<uuid>` (stable across retries: receivers deduplicate on it), `webhook-timestamp`
 * (unix seconds of this attempt) and `webhook-signature: v1,<base64 HMAC-SHA256("id.timestamp.body")>`
 * keyed with the workspace secret (`whsec_` + base64). Verify with `standardwebhooks`:
 * `new Webhook(secret).verify(rawBody, headers)`.
 *
 * ## Delivery rules
 *
 * - 2xx = delivered. Any other status, a network error or a timeout (10 s per attempt) = retried with
 *   exponential backoff and jitter (10 s, 30 s, 90 s, ... capped at 6 h; 50-100 % of nominal), up to
 *   the row's `maxAttempts` (table default 10), then `failed` with `lastError`.
 * - Redirects are not followed. A URL the SSRF guard refuses (../network) fails at once, without any
 *   connection attempt, and is not retried. So does a job whose workspace has no secret any more.
 * - At least once: a worker that dies mid-delivery leaves the job to another instance when its lock
 *   expires (`lockMs`, 5 min). `attempts` counts started attempts.
 *
 * The queue lives here for now because this folder is its first user; it is generic (kinds,
 * handlers) and can move to `src/jobs/` (prisma/schema.prisma's comment on `Job` points there).
 */

export type { ClaimedJob, ClaimOptions, EnqueueJobInput, JobDb, JobWriter } from "../jobs/job-queue.js";
export { claimJobs, completeJob, enqueueJob, failJob, retryJob } from "../jobs/job-queue.js";
export type { BackoffOptions, JobHandler, JobRunnerLogger, JobRunnerOptions } from "../jobs/job-runner.js";
export { backoffDelayMs, JobRunner, PermanentJobError } from "../jobs/job-runner.js";
export type {
  EnqueueWebhookInput,
  WebhookDeliveryOptions,
  WebhookDeliveryResult,
  WebhookEvent,
  WebhookHandlerOptions,
  WebhookJobPayload,
} from "./delivery.js";
export {
  checkWebhookUrl,
  createWebhookHandler,
  deliverWebhook,
  enqueueWebhook,
  FILE_UPLOADED,
  fileUploadedEvent,
  WEBHOOK_JOB_KIND,
} from "./delivery.js";
export type { WebhookSignatureHeaders } from "./signing.js";
export { generateWebhookSecret, signWebhook } from "./signing.js";
