import ky from "ky";
import type { ApiTransport, TransportTarget } from "./api-transport.js";

export function kyTransport({ baseUrl, headers, fetch }: TransportTarget): ApiTransport {
  const http = ky.create({
    prefixUrl: baseUrl,
    headers,
    retry: 0,
    timeout: false,
    throwHttpErrors: false,
    fetch,
    // The key must not follow a redirect to another host: redirect-refused.ts.
    redirect: "manual",
  });
  return (call, signal, key) =>
    http(call.path.replace(/^\//, ""), {
      method: call.method,
      headers: { "x-api-key": key },
      searchParams: call.query,
      json: call.json,
      body: call.form,
      signal,
    });
}
