import type { ApiCall } from "./api-call.js";

/**
 * Sends one attempt of an API call and returns whatever came back (any status). Retries,
 * timeouts and error mapping are the SDK's own, around it (api-call.ts), so both
 * implementations stay this thin: ky for createClient, plain fetch for the upload-only client,
 * where ky alone would be 5 kB of a 12 kB budget. Both send the API key, so both refuse redirects
 * (redirect-refused.ts).
 */
export type ApiTransport = (call: ApiCall, signal: AbortSignal, key: string) => Promise<Response>;

export interface TransportTarget {
  baseUrl: string;
  /** The caller's headers; the key is added per call, as `x-api-key`. */
  headers: Record<string, string>;
  fetch: typeof fetch;
}
