import type { ApiTransport, TransportTarget } from "./api-transport.js";
import { apiUrl } from "./api-url.js";

export function fetchTransport({ baseUrl, headers, fetch }: TransportTarget): ApiTransport {
  return (call, signal, key) => {
    const json = call.json !== undefined;
    return fetch(apiUrl(baseUrl, call), {
      method: call.method,
      headers: { ...headers, "x-api-key": key, ...(json && { "content-type": "application/json" }) },
      body: json ? JSON.stringify(call.json) : call.form,
      signal,
      // The key must not follow a redirect to another host: redirect-refused.ts.
      redirect: "manual",
    });
  };
}
