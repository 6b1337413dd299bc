import type { ApiCall } from "./api-call.js";

/** `baseUrl` + the call's path + its query string, undefined values left out. */
export function apiUrl(baseUrl: string, call: Pick<ApiCall, "path" | "query">): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query ?? {}))
    if (value !== undefined) params.set(key, String(value));
  const query = params.toString();
  return `${baseUrl}${call.path}${query ? `?${query}` : ""}`;
}
