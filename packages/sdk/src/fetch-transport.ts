import type { ApiTransport, TransportTarget } from "./api-transport.js";
import { searchOf } from "./search-of.js";

export function fetchTransport({ baseUrl, headers, fetch }: TransportTarget): ApiTransport {
  return (call, signal) => {
    const query = searchOf(call.query);
    const json = call.json !== undefined;
    return fetch(`${baseUrl}${call.path}${query ? `?${query}` : ""}`, {
      method: call.method,
      headers: json ? { ...headers, "content-type": "application/json" } : headers,
      body: json ? JSON.stringify(call.json) : call.form,
      signal,
    });
  };
}
