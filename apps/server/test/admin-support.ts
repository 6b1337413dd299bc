/**
 * Test support for the admin API: a test app with an admin token, and `admin(t, method, url,
 * body?)` that sends it. Not shipped (outside src/).
 */
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { createTestApp, type TestApp, type TestAppOverrides } from "./support/index.js";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef0123456789";

export function createAdminTestApp(overrides: TestAppOverrides = {}): Promise<TestApp> {
  return createTestApp({ ...overrides, config: { adminToken: ADMIN_TOKEN, ...overrides.config } });
}

/** A request to the admin API with the admin token (or `token`, or none when null). */
export function admin(
  t: TestApp,
  method: NonNullable<InjectOptions["method"]>,
  url: string,
  body?: unknown,
  token: string | null = ADMIN_TOKEN,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as InjectOptions["payload"] }),
  });
}
