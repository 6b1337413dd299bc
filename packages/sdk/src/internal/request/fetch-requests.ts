import type { ApiCall, ApiRequests, RequestSettings } from "./api-call.js";
import { readSuccess } from "./api-call.js";
import { retryRequestOf } from "./retry-policy.js";
import { sendAttempt } from "./send-attempt.js";
import { withRetry } from "./with-retry.js";

/**
 * The upload-only client's minimal transport: plain fetch, with the SDK's own timeout
 * (send-attempt.ts) and a retry loop (with-retry.ts) that asks the same retry-policy.ts as ky does
 * in createClient. ky itself would add 4.7 kB min+gzip to that entry's budget (see the README).
 */
export function fetchRequests(settings: RequestSettings): ApiRequests {
  return (call, key) =>
    withRetry(
      () =>
        sendAttempt(
          settings,
          call.signal,
          call.timeout ?? settings.timeout,
          (signal) => send(settings, call, key, signal),
          readSuccess,
        ),
      retryRequestOf(call.method),
      settings.retry,
      call.signal,
    );
}

function send(settings: RequestSettings, call: ApiCall, key: string, signal: AbortSignal): Promise<Response> {
  const json = call.json !== undefined;
  return settings.fetch(apiUrl(settings.baseUrl, call), {
    method: call.method,
    headers: { ...settings.headers, "x-api-key": key, ...(json && { "content-type": "application/json" }) },
    body: json ? JSON.stringify(call.json) : call.form,
    signal,
    // The key must not follow a redirect to another host: error-from-response.ts refuses it.
    redirect: "manual",
  });
}

/** `baseUrl` + the call's path + its query string, undefined values left out. */
function apiUrl(baseUrl: string, call: Pick<ApiCall, "path" | "query">): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query ?? {}))
    if (value !== undefined) params.set(key, String(value));
  const query = params.toString();
  return `${baseUrl}${call.path}${query ? `?${query}` : ""}`;
}
