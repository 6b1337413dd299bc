/**
 * `listeningTestApp()`: a test app listening on a loopback port, for suites that need real HTTP
 * (streamed bodies, concurrent requests), and its origin (`http://127.0.0.1:<port>`).
 *
 *   const { t, origin } = await listeningTestApp();
 *   ...
 *   await closeListeningTestApp(t);
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { createTestApp, type TestApp, type TestAppOverrides } from "./create-test-app.js";

export async function listeningTestApp(
  overrides?: TestAppOverrides,
): Promise<{ t: TestApp; origin: string }> {
  const t = await createTestApp(overrides);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  return { t, origin: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

export async function closeListeningTestApp(t: TestApp | undefined): Promise<void> {
  // Every request has finished; drop the client's keep-alive sockets now rather than when the
  // server's keep-alive timeout ends them (a socket whose response finished just after the
  // client read its last byte is not idle yet when close() looks).
  t?.app.server.closeAllConnections();
  await t?.close();
}

/**
 * The same for a whole suite: started before its tests and closed after them. Read `suite.t` and
 * `suite.origin` inside the tests (they are set once `beforeAll` has run).
 */
export function listeningTestAppPerSuite(overrides?: TestAppOverrides): { t: TestApp; origin: string } {
  const suite = { origin: "" } as { t: TestApp; origin: string };
  beforeAll(async () => {
    Object.assign(suite, await listeningTestApp(overrides));
  });
  afterAll(async () => {
    await closeListeningTestApp(suite.t);
  });
  return suite;
}
