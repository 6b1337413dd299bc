/** examples/backend-and-browser started in-process on loopback against a running trove-server. */
import type { AddressInfo } from "node:net";
import type { ServerProcess } from "@trove/test-support/server-process";
import { createBackend } from "../../examples/backend-and-browser/src/backend.js";
import { configFromEnv } from "../../examples/backend-and-browser/src/config.js";

export interface BackendExample {
  url: string;
  close(): Promise<void>;
}

export async function startBackendExample(server: ServerProcess): Promise<BackendExample> {
  // The same environment variables the example's README sets.
  const config = configFromEnv({
    TROVE_BASE_URL: server.baseUrl,
    TROVE_ASSETS_URL: server.assetsUrl,
    TROVE_PRIVATE_KEY: server.keys.private,
    HOST: "127.0.0.1",
    PORT: "0",
  });
  const app = await createBackend(config);
  await app.listen({ host: config.host, port: config.port });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
