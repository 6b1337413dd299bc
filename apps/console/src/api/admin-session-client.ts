import { createAdminClient, type TroveAdminClient } from "@trove/sdk/admin";
import type { ConsoleSession } from "./session-api.js";
import { sessionFetch } from "./session-client.js";

/**
 * The placeholder the SDK's admin client is built with: it wants a token, but the console never
 * holds the admin token (it was sent once, at sign-in). The admin session's cookie (HttpOnly)
 * authenticates instead, and `sessionFetch` deletes the Authorization header this string would
 * travel in before anything leaves the page, so the server never sees it.
 */
const PLACEHOLDER_ADMIN_TOKEN = "console_admin_session";

/** The SDK admin client of an admin session: the admin API on the console's origin, the cookie as credential. */
export function createAdminSessionClient(
  session: ConsoleSession,
  onSessionEnded: () => void,
  origin: string = window.location.origin,
): TroveAdminClient {
  return createAdminClient({
    adminToken: PLACEHOLDER_ADMIN_TOKEN,
    baseUrl: origin,
    fetch: sessionFetch(session.csrf_token, onSessionEnded, origin),
  });
}
