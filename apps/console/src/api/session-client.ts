import { createClient, type TroveClient } from "@trove/sdk";
import type { ConsoleSession } from "./session-api.js";

/**
 * The placeholder key the SDK is built with. `createClient` wants a key, but the console never
 * holds one: the session cookie (HttpOnly, so no script here can read it) authenticates instead.
 * `sessionFetch` deletes the key headers before anything leaves the page, so this string never
 * reaches the server. It is a `trove_sk_` string, which the SDK refuses in a browser unless
 * `allowPrivateKeyInBrowser` is set: that guard exists to stop real private keys shipping in
 * pages, and no real key is in this page.
 */
const PLACEHOLDER_KEY = "trove_sk_console_session";

/**
 * A fetch for the SDK: same-origin requests get the session's CSRF header and the cookie, and
 * lose the key headers (the placeholder). Other origins (presigned storage URLs) are left as the
 * SDK made them: they need no session, and must not learn the CSRF token. A same-origin 401 means
 * the session is gone (idle timeout, sign-out elsewhere, the key revoked): `onSessionEnded` is
 * told, once per answer.
 */
export function sessionFetch(
  csrfToken: string,
  onSessionEnded: () => void,
  origin: string = window.location.origin,
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).origin !== origin) return fetch(request);
    const headers = new Headers(request.headers);
    headers.delete("x-api-key");
    headers.delete("authorization");
    headers.set("x-csrf-token", csrfToken);
    const response = await fetch(new Request(request, { headers, credentials: "same-origin" }));
    if (response.status === 401) onSessionEnded();
    return response;
  };
}

/** The SDK client of a workspace session: the API on the console's own origin, the cookie as credential. */
export function createSessionClient(
  session: ConsoleSession,
  onSessionEnded: () => void,
  origin: string = window.location.origin,
): TroveClient {
  return createClient({
    apiKey: PLACEHOLDER_KEY,
    allowPrivateKeyInBrowser: true,
    baseUrl: origin,
    fetch: sessionFetch(session.csrf_token, onSessionEnded, origin),
    ...(session.workspace_no === undefined ? {} : { workspaceNo: session.workspace_no }),
  });
}
