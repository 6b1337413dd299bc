/**
 * The SDK as a user runs it in Node (`createClient` from `@trove/sdk/node`), with a fetch that
 * notes the part size the server chose at multipart start, so baselines can use the same one.
 */
import { createClient } from "@trove/sdk/node";
import type { TroveServer } from "./trove-server.js";

export interface ObservedClient {
  client: ReturnType<typeof createClient>;
  /** part_size of the last multipart start, once one happened. */
  partSize(): number | undefined;
  /** Milliseconds the last `POST /api/v1/multipart/complete` took, once one happened. */
  completeMs(): number | undefined;
}

export function troveClient(
  server: Pick<TroveServer, "baseUrl" | "assetsUrl" | "keys">,
  key: "private" | "public" = "private",
  { uploadTimeout = 180_000 }: { uploadTimeout?: number } = {},
): ObservedClient {
  let partSize: number | undefined;
  let completeMs: number | undefined;
  const observingFetch: typeof fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const started = performance.now();
    const response = await fetch(input, init);
    if (url.endsWith("/api/v1/multipart/complete")) completeMs = performance.now() - started;
    if (url.endsWith("/api/v1/multipart/start") && response.ok) {
      const body = (await response.clone().json()) as { part_size?: number };
      partSize = body.part_size;
    }
    return response;
  };
  const client = createClient({
    apiKey: server.keys[key],
    baseUrl: server.baseUrl,
    assetsUrl: server.assetsUrl,
    fetch: observingFetch,
    // No retries: a failure must show, not be absorbed into the timing. A stuck request fails.
    maxRetries: 0,
    uploadTimeout,
  });
  return { client, partSize: () => partSize, completeMs: () => completeMs };
}
