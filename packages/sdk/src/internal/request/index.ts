/**
 * The request engine: everything between an API call and its parsed answer or TroveError.
 *
 * - api-call.ts: what a call is, `callApi` (a call with the client's key, renewed once after a
 *   401 with upload tokens) and the engines' shared settings.
 * - ky-requests.ts: the API client's engine (createClient, createAdminClient): ky with its
 *   prefixUrl, timeout, hooks and retry; the key goes in `x-api-key`, or as a bearer token for the
 *   admin API.
 * - fetch-requests.ts: createUploadClient's minimal transport, plain fetch with send-attempt.ts
 *   and with-retry.ts, kept apart so the upload entry ships no ky; parts use the same two, with
 *   XMLHttpRequest (xhr-transport.ts) for byte progress.
 * - retry-policy.ts: the one retry rule and the one backoff; ky's retry and with-retry.ts both
 *   only ask it.
 * - error-from-response.ts: any non-2xx as its TroveError; error-from-failure.ts: anything an
 *   attempt threw (abort, timeout, connection) as its TroveError.
 *
 * Nothing here imports the client, the resources or the upload engine: they import this.
 */
export {
  type ApiCall,
  type ApiClient,
  type ApiRequests,
  type ApiResponse,
  callApi,
  type HttpMethod,
  type QueryValue,
  type RequestSettings,
} from "./api-call.js";
export type { FailureContext } from "./error-from-failure.js";
export { fetchRequests } from "./fetch-requests.js";
export { type KeyHeader, type KyRequestsOptions, kyRequests } from "./ky-requests.js";
export { requestNotSent } from "./request-not-sent.js";
export { parseResponse, type ResponseSchema, type UploadSchemas } from "./response-schema.js";
export { type RetryPolicy, retryRequestOf } from "./retry-policy.js";
export { sendAttempt } from "./send-attempt.js";
export { abortErrorFrom, linkSignals } from "./signals.js";
export { withRetry } from "./with-retry.js";
export { sendWithProgress } from "./xhr-transport.js";
