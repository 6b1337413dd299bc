import { createClient, type TroveClient } from "@trove/sdk";
import type { ServerProcess } from "@trove/test-support/server-process";

/** An SDK client with the server's private key: what a test uses to check what the server holds. */
export function adminClient(server: ServerProcess): TroveClient {
  return createClient({ apiKey: server.keys.private, baseUrl: server.baseUrl, assetsUrl: server.assetsUrl });
}
