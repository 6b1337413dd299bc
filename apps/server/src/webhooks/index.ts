/**
 * Signed webhooks: workspace endpoints and events, one-off `webhook_url`s, the signing secret and
 * its rotation, delivery from the durable job queue (../jobs), and the `trove-server webhooks` CLI.
 *
 * ## API
 *
 * ```ts
 * // Any change to files or folders, inside the transaction that makes it:
 * emitWorkspaceEvent(tx, { workspaceId, type, data, subject, at? }): Promise<number>  // deliveries enqueued
 * fileEventData(file) / folderEventData(folder)                // the usual `data` (./event-data.ts)
 * hasSubscribers(db, workspaceId, type): Promise<boolean>
 * subscribedSql(workspaceId, type): Prisma.Sql                 // the same test inside a statement
 * WORKSPACE_EVENT_TYPES                                        // file.uploaded ... folder.deleted
 *
 * // Endpoints, secrets, deliveries (the CLI, ./webhook-commands.ts, is their user):
 * addEndpoint(db, { workspaceId, url, eventTypes, trustedRanges? }) / listEndpoints / removeEndpoint
 * currentWebhookSecret(db, secretKey, workspaceId) / signingSecrets(...) / rotateWebhookSecret(db, { graceMs, ... })
 * listDeliveries(db, { workspaceId, endpointId?, limit?, maxAttempts? }): Promise<DeliveryRow[]>
 *
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
 *   trustedRanges: config.trustedRanges, timeoutMs?: 10_000, maxAttempts?: config.webhooks.maxAttempts,
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
 * oneOffWebhookSecret(workspaceSecret, url): string            // signs a public credential's one-off webhook_url
 * ```
 *
 * ## Wire format (Standard Webhooks)
 *
 * `POST <url>`, `content-type: application/json`, `user-agent: Trove-Webhooks/1.0`, body
 * `{"type":"file.uploaded","timestamp":"<ISO 8601>","data":...}` (`data` per type: ./event-data.ts;
 * for `file.uploaded` the upload response object), headers `webhook-id: msg_<uuid>` (stable across
 * retries: receivers deduplicate on it), `webhook-timestamp` (unix seconds of this attempt) and
 * `webhook-signature: v1,<base64 HMAC-SHA256("id.timestamp.body")>` keyed with the workspace secret
 * (`whsec_` + base64); during a rotation's grace a second, space-separated `v1,` signature with the
 * previous secret (./workspace-secrets.ts). Verify with `standardwebhooks`:
 * `new Webhook(secret).verify(rawBody, headers)`. A one-off `webhook_url` of an upload made with a
 * public key or an upload token is signed with `oneOffWebhookSecret(secret, url)` instead
 * (./signing.ts, `signWithUrlKey`): its holder chose the URL and must not receive messages the
 * workspace's endpoints accept.
 *
 * ## Delivery rules
 *
 * - 2xx = delivered. Any other status, a network error or a timeout (10 s per attempt) = retried with
 *   exponential backoff and jitter (10 s, 30 s, 90 s, ... capped at 6 h; 50-100 % of nominal), up to
 *   TROVE_WEBHOOK_MAX_ATTEMPTS (or the row's smaller `maxAttempts`), then `failed` with `lastError`.
 * - Endpoint deliveries of one subject are ordered (the job's `order_key`, ./workspace-events.ts).
 * - Redirects are not followed. A URL the SSRF guard refuses (../network) fails at once, without any
 *   connection attempt, and is not retried. So does a job whose workspace has no secret any more.
 * - At least once: a worker that dies mid-delivery leaves the job to another instance when its lock
 *   expires (`lockMs`, 5 min). `attempts` counts started attempts.
 *
 * The queue itself lives in ../jobs and is re-exported here for the callers that import it from here.
 */

export type { ClaimedJob, ClaimOptions, EnqueueJobInput, JobDb, JobWriter } from "../jobs/job-queue.js";
export { claimJobs, completeJob, enqueueJob, failJob, retryJob } from "../jobs/job-queue.js";
export type { BackoffOptions, JobHandler, JobRunnerLogger, JobRunnerOptions } from "../jobs/job-runner.js";
export { backoffDelayMs, JobRunner, PermanentJobError } from "../jobs/job-runner.js";
export type { DeliveryJobStatus, DeliveryRow, DeliveryStatus } from "./deliveries.js";
export { listDeliveries, redeliver } from "./deliveries.js";
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
export { addEndpoint, listEndpoints, parseEventTypes, removeEndpoint } from "./endpoints.js";
export type { FileEventData, FolderEventData, RenamedEventData } from "./event-data.js";
export { fileEventData, folderEventData } from "./event-data.js";
export type { WebhookSignatureHeaders } from "./signing.js";
export { generateWebhookSecret, oneOffWebhookSecret, signWebhook } from "./signing.js";
export type { WorkspaceEventInput, WorkspaceEventType } from "./workspace-events.js";
export {
  emitWorkspaceEvent,
  hasSubscribers,
  subscribedSql,
  WORKSPACE_EVENT_TYPES,
} from "./workspace-events.js";
export type { RotatedSecret } from "./workspace-secrets.js";
export { currentWebhookSecret, rotateWebhookSecret, signingSecrets } from "./workspace-secrets.js";
