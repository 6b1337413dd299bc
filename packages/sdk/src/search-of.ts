import type { QueryValue } from "./api-call.js";

/** A query string without the `?`; undefined values are left out. */
export function searchOf(query: Record<string, QueryValue> | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) params.set(key, String(value));
  return params.toString();
}
