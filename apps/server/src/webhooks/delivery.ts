import { randomUUID } from "node:crypto";
import { SpanKind } from "@opentelemetry/api";
import type { Prisma } from "../generated/prisma/client.js";
import { enqueueJob, type JobWriter } from "../jobs/job-queue.js";
import { describeError, type JobHandler, PermanentJobError } from "../jobs/job-runner.js";
import { checkRemoteUrl } from "../network/check-url.js";
import type { Connector, LookupAll } from "../network/guarded-connector.js";
import { isRemoteFetchError } from "../network/remote-fetch-error.js";
import { safeFetch } from "../network/safe-fetch.js";
import type { TrustedRangesInput } from "../network/trusted-ranges.js";
import { inSpan } from "../tracing/in-span.js";
import { traceContextOf, traceHeaders, withTraceContext } from "../tracing/trace-context.js";
import { oneOffWebhookSecret, signWebhook } from "./signing.js";

/** `kind` of webhook rows in the `jobs` table. */
export const WEBHOOK_JOB_KIND = "webhook";

/** Event type sent after a direct or remote-URL upload succeeded. */
export const FILE_UPLOADED = "file.uploaded";

/**
 * The JSON body of every delivery: `{ type, timestamp, data }`. For `file.uploaded`, `data` is the
 * upload response object exactly as the upload endpoint returned it; `timestamp` is when the event
 * happened (ISO 8601), fixed at enqueue time and the same on every retry.
 */
export interface WebhookEvent<T = unknown> {
  type: string;
  timestamp: string;
  data: T;
}

/** What a webhook job stores in `jobs.payload`. */
export interface WebhookJobPayload {
  workspaceId: string;
  /** The registered endpoint this goes to; absent for an upload's one-off `webhook_url`. */
  endpointId?: string;
  /**
   * Sign with `oneOffWebhookSecret(secret, url)` (./signing.ts), not the workspace secret: set for
   * a one-off `webhook_url` named by a public key or an upload token.
   */
  signWithUrlKey?: true;
  url: string;
  /** `webhook-id` header: `msg_<uuid>`, the same on every attempt, so receivers can drop repeats. */
  webhookId: string;
  event: WebhookEvent;
  /** W3C trace context of what enqueued it, while tracing is on (src/tracing/trace-context.ts). */
  traceContext?: Record<string, string>;
}

export function fileUploadedEvent<T>(data: T, at: Date = new Date()): WebhookEvent<T> {
  return { type: FILE_UPLOADED, timestamp: at.toISOString(), data };
}

/**
 * Checks a `webhook_url` before accepting a request (no DNS): http(s), no credentials, no refused IP
 * literal. Throws `RemoteFetchError` (`REMOTE_URL_FORBIDDEN`, 400, "webhook_url ..."). Host names are
 * checked at delivery time, on the addresses they resolve to then.
 */
export function checkWebhookUrl(url: string, options: { trustedRanges?: TrustedRangesInput } = {}): URL {
  return checkRemoteUrl(url, { trustedRanges: options.trustedRanges, label: "webhook_url" });
}

export interface EnqueueWebhookInput {
  workspaceId: string;
  url: string;
  payload: WebhookEvent;
  maxAttempts?: number;
  /** Needed only if `url` may be an IP literal in a trusted range. */
  trustedRanges?: TrustedRangesInput;
  /**
   * The URL was named by a public credential (a public key, an upload token): sign under the key
   * derived for it, so its holder never receives a message the workspace's endpoints accept.
   */
  signWithUrlKey?: boolean;
}

/**
 * Queues one delivery (a `jobs` row of kind `webhook`) and returns at once; the JobRunner sends it.
 * Works with a transaction client too, so the row can commit together with the upload's own rows.
 * Throws `RemoteFetchError` for a URL `checkWebhookUrl` refuses, and a TypeError for a payload that
 * is not JSON (a BigInt, say).
 */
export async function enqueueWebhook(
  db: JobWriter,
  input: EnqueueWebhookInput,
): Promise<{ jobId: string; webhookId: string }> {
  const url = checkWebhookUrl(input.url, { trustedRanges: input.trustedRanges }).toString();
  const webhookId = `msg_${randomUUID()}`;
  const traceContext = traceContextOf();
  const payload: WebhookJobPayload = {
    workspaceId: input.workspaceId,
    url,
    webhookId,
    event: JSON.parse(JSON.stringify(input.payload)) as WebhookEvent,
    ...(input.signWithUrlKey ? { signWithUrlKey: true as const } : {}),
    ...(traceContext ? { traceContext } : {}),
  };
  const job = await enqueueJob(db, {
    kind: WEBHOOK_JOB_KIND,
    workspaceId: input.workspaceId,
    payload: payload as unknown as Prisma.InputJsonValue,
    ...(input.maxAttempts === undefined ? {} : { maxAttempts: input.maxAttempts }),
  });
  return { jobId: job.id, webhookId };
}

export interface WebhookDeliveryOptions {
  trustedRanges?: TrustedRangesInput;
  /** Deadline of one attempt, ms (10 s). */
  timeoutMs?: number;
  userAgent?: string;
  /** Injectable resolver and connector (tests). */
  lookup?: LookupAll;
  connect?: Connector;
}

export interface WebhookDeliveryResult {
  status: number;
  ok: boolean;
}

/**
 * Sends one signed delivery: POST `url` with the event as JSON, signed now. Redirects are not
 * followed; the response body is not read. Resolves with the receiver's status (`ok` for 2xx);
 * throws `RemoteFetchError` when the guard refuses the URL or the request fails. While tracing is
 * on it is a `webhook delivery` span, whose `traceparent` the receiver gets.
 */
export function deliverWebhook(
  input: Parameters<typeof sendWebhook>[0],
  options: WebhookDeliveryOptions = {},
): Promise<WebhookDeliveryResult> {
  return inSpan(
    "webhook delivery",
    { "webhook.id": input.webhookId },
    () => sendWebhook(input, options),
    SpanKind.CLIENT,
  );
}

async function sendWebhook(
  input: {
    url: string;
    webhookId: string;
    event: WebhookEvent;
    secrets: readonly string[];
    timestamp?: Date;
  },
  options: WebhookDeliveryOptions = {},
): Promise<WebhookDeliveryResult> {
  const body = JSON.stringify(input.event);
  const signature = signWebhook({
    secrets: input.secrets,
    webhookId: input.webhookId,
    body,
    ...(input.timestamp ? { timestamp: input.timestamp } : {}),
  });
  const response = await safeFetch(input.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": options.userAgent ?? "Trove-Webhooks/1.0",
      ...traceHeaders(),
      ...signature,
    },
    body,
    maxRedirects: 0,
    timeoutMs: options.timeoutMs ?? 10_000,
    label: "webhook_url",
    trustedRanges: options.trustedRanges,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.connect ? { connect: options.connect } : {}),
  });
  response.body.destroy();
  return { status: response.status, ok: response.status >= 200 && response.status < 300 };
}

export interface WebhookHandlerOptions extends WebhookDeliveryOptions {
  /**
   * Attempts after which a delivery fails for good (TROVE_WEBHOOK_MAX_ATTEMPTS), applied at run
   * time so that it also holds for jobs enqueued without the config (endpoint events); a job's own
   * smaller `maxAttempts` still wins.
   */
  maxAttempts?: number;
  /**
   * The workspace's plaintext signing secrets (`whsec_...`), current first, the previous one too
   * during a rotation's grace; empty when the workspace is gone.
   */
  resolveSecrets(workspaceId: string): Promise<readonly string[]>;
  /**
   * Records what the receiver answered on this attempt (its HTTP status, 2xx included), or null
   * when it answered nothing (network error, timeout, refused URL): the admin API shows it.
   */
  recordResponseStatus?(jobId: string, status: number | null): Promise<void>;
}

/**
 * The JobRunner handler for `webhook` jobs: 2xx = delivered; another status, a network error or a
 * timeout = retry with backoff; a URL the SSRF guard refuses, or a deleted workspace = `failed` at
 * once (no retry, no connection attempted).
 */
export function createWebhookHandler(options: WebhookHandlerOptions): JobHandler<WebhookJobPayload> {
  return async (job) => {
    const payload = job.payload;
    const workspaceSecrets = await options.resolveSecrets(payload.workspaceId);
    if (workspaceSecrets.length === 0) {
      throw new PermanentJobError(`workspace ${payload.workspaceId} has no webhook secret`);
    }
    // A URL a public key's holder named: signed under a key derived for it, which the
    // workspace's own endpoints reject (issue #30).
    const secrets = payload.signWithUrlKey
      ? workspaceSecrets.map((secret) => oneOffWebhookSecret(secret, payload.url))
      : workspaceSecrets;
    let result: WebhookDeliveryResult;
    try {
      // A child of the request that enqueued it, when that request was traced.
      result = await withTraceContext(payload.traceContext, () =>
        deliverWebhook({ ...payload, secrets }, options),
      );
    } catch (error) {
      await options.recordResponseStatus?.(job.id, null);
      if (isRemoteFetchError(error) && error.code === "REMOTE_URL_FORBIDDEN") {
        throw new PermanentJobError(`${error.message}${error.detail ? ` (${error.detail})` : ""}`);
      }
      throw lastAttempt(job.attempts, options.maxAttempts)
        ? new PermanentJobError(describeError(error))
        : error;
    }
    await options.recordResponseStatus?.(job.id, result.status);
    if (!result.ok) {
      const message = `receiver answered HTTP ${result.status}`;
      throw lastAttempt(job.attempts, options.maxAttempts)
        ? new PermanentJobError(message)
        : new Error(message);
    }
  };
}

function lastAttempt(attempts: number, maxAttempts: number | undefined): boolean {
  return maxAttempts !== undefined && attempts >= maxAttempts;
}
