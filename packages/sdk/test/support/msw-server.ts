import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { ClientOptions } from "../../src/internal/client/client-options.js";
import { createClient } from "../../src/internal/client/create-client.js";

export const BASE_URL = "https://api.trove.test";
export const ASSETS_URL = "https://assets.trove.test";
export const STORAGE_URL = "https://storage.trove.test";

/** An msw server for one test file; any request without a handler fails the test. */
export function useMswServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

export function testOptions(overrides: Partial<ClientOptions> = {}): ClientOptions {
  // No waiting between retries unless a test is about the waits.
  return {
    apiKey: "trove_sk_test",
    baseUrl: BASE_URL,
    assetsUrl: ASSETS_URL,
    maxRetryDelay: 0,
    ...overrides,
  };
}

export function testClient(overrides: Partial<ClientOptions> = {}) {
  return createClient(testOptions(overrides));
}
