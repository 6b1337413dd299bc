/**
 * The request engine: everything between an API call and its parsed answer or TroveError.
 *
 * - api-call.ts: what a call is, `callApi` (a call with the client's key, renewed once after a
 *   401 with upload tokens) and the engines' shared settings.
 * - ky-requests.ts: createClient's and createAdminClient's engine, ky with its prefixUrl, timeout,
 *   hooks and retry; the key goes in `x-api-key`, or as a bearer token for the admin API.
 * - fetch-requests.ts: createUploadClient's engine, plain fetch with send-attempt.ts and
 *   with-retry.ts, kept apart so the upload entry ships no ky.
 * - error-from-response.ts: any non-2xx as its TroveError; retry-policy.ts: the one retry rule.
 * - send-attempt.ts, with-retry.ts, xhr-transport.ts: one attempt with a timeout, retries around
 *   it, and XMLHttpRequest for byte progress; the upload engine sends parts with them.
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
export { fetchRequests } from "./fetch-requests.js";
export { type KeyHeader, type KyRequestsOptions, kyRequests } from "./ky-requests.js";
export { requestNotSent } from "./request-not-sent.js";
export { parseResponse, type ResponseSchema, type UploadSchemas } from "./response-schema.js";
export type { RetryPolicy } from "./retry-policy.js";
export { type FailureContext, sendAttempt } from "./send-attempt.js";
export { abortErrorFrom, linkSignals } from "./signals.js";
export { withRetry } from "./with-retry.js";
export { sendWithProgress } from "./xhr-transport.js";
