/**
 * The console's session API, same origin only (no CORS headers), in the API's envelope
 * (`{ success: true, data }`, errors `{ success: false, error, message, errorCode }`):
 *
 *   POST   /console/api/session  { secret }  -> 200 data + Set-Cookie trove_console=...
 *   GET    /console/api/session              -> 200 data (csrf_token included) or 401
 *   DELETE /console/api/session              -> 200, row deleted, cookie cleared (needs x-csrf-token)
 *
 * `data`: `{ kind, workspace_no?, workspace_name?, csrf_token, idle_timeout_seconds }`.
 * A private key of an active, unexpired key opens a workspace session; the admin token (only
 * while the admin API is on) an admin session. Public keys and upload tokens are refused with a
 * message saying what the console takes; anything else is a plain 401. Failures count against the
 * client address (./sign-in-throttle.ts). The secret is read once and dropped: never logged (the
 * server logs no bodies), echoed or stored.
 */
import { ERROR_MESSAGES } from "@trove/schema";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { isAdminToken } from "../admin/admin-token.js";
import { HttpError } from "../errors/http-error.js";
import { hashApiKey, isApiKeyExpired, isPlausibleApiKey } from "../keys/api-keys.js";
import { isUploadTokenShaped } from "../keys/upload-tokens.js";
import { CONSOLE_ROUTE_CONFIG } from "./console-route-config.js";
import { CONSOLE_COOKIE, consoleCookieOptions } from "./session-cookie.js";
import {
  createSession,
  deleteEndedSessions,
  deleteSession,
  type NewSession,
  readSession,
  type StoredSession,
  sha256Hex,
} from "./session-store.js";
import { createSignInThrottle } from "./sign-in-throttle.js";

export const CONSOLE_SESSION_PATH = "/console/api/session";
export const CONSOLE_KEY_KIND_MESSAGE = "The console signs in with a private key or the admin token";
/** Longest secret looked at (the admin token's maximum); longer ones are simply wrong. */
const MAX_SECRET_LENGTH = 512;

export interface ConsoleSessionData {
  kind: "workspace" | "admin";
  workspace_no?: string;
  workspace_name?: string;
  csrf_token: string;
  idle_timeout_seconds: number;
}

const unauthorized = (message: string = ERROR_MESSAGES.unauthorized) =>
  new HttpError(401, message, { errorCode: "UNAUTHORIZED" });

export const consoleSessionRoutes: FastifyPluginAsync = async (app) => {
  const { config, db } = app;
  const idleSeconds = config.console.idleSeconds;
  const throttle = createSignInThrottle(app);

  const dataOf = (session: StoredSession): ConsoleSessionData => ({
    kind: session.kind,
    ...(session.kind === "workspace" && session.key
      ? { workspace_no: session.key.workspaceNo, workspace_name: session.key.workspaceName }
      : {}),
    csrf_token: session.csrfToken,
    idle_timeout_seconds: idleSeconds,
  });

  /** What `secret` signs in as, or the 401 to answer. */
  const sessionFor = async (secret: string): Promise<NewSession | HttpError> => {
    if (secret.length > MAX_SECRET_LENGTH) return unauthorized();
    if (config.adminToken !== undefined && isAdminToken(config.adminToken, secret)) {
      return { kind: "admin", adminTokenHash: sha256Hex(config.adminToken) };
    }
    if (isUploadTokenShaped(secret)) return unauthorized(CONSOLE_KEY_KIND_MESSAGE);
    const key = isPlausibleApiKey(secret) ? await app.activeKeys.get(hashApiKey(secret)) : null;
    if (!key || isApiKeyExpired(key)) return unauthorized();
    if (key.type !== "private") return unauthorized(CONSOLE_KEY_KIND_MESSAGE);
    return { kind: "workspace", apiKeyId: key.id };
  };

  const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
    // The body carries the CSRF token: no cache keeps it.
    reply.header("cache-control", "no-store");
  };
  const options = { config: CONSOLE_ROUTE_CONFIG, onRequest: noStore };

  app.post(CONSOLE_SESSION_PATH, options, async (request, reply) => {
    const body = request.body as { secret?: unknown } | null | undefined;
    const secret = typeof body === "object" && body !== null ? body.secret : undefined;
    if (typeof secret !== "string" || secret === "") {
      throw new HttpError(400, "secret is required: a private key or the admin token", {
        errorCode: "VALIDATION_FAILED",
      });
    }
    throttle.check(request);
    const signIn = await sessionFor(secret);
    if (signIn instanceof HttpError) {
      await throttle.recordFailure(request);
      throw signIn;
    }
    // Signing in again replaces the session this browser held: its old cookie dies here.
    const previous = await app.consoleSessions.current(request);
    if (previous) await deleteSession(db, previous.id);
    await deleteEndedSessions(db, idleSeconds * 1000);
    const { cookie } = await createSession(db, signIn);
    const session = await readSession(db, cookie);
    if (!session) throw unauthorized();
    reply.setCookie(CONSOLE_COOKIE, cookie, consoleCookieOptions(request));
    return { success: true, data: dataOf(session) };
  });

  app.get(CONSOLE_SESSION_PATH, options, async (request) => {
    const session = await app.consoleSessions.current(request);
    if (!session) throw unauthorized();
    return { success: true, data: dataOf(session) };
  });

  app.delete(CONSOLE_SESSION_PATH, options, async (request, reply) => {
    const session = await app.consoleSessions.current(request);
    if (!session) throw unauthorized();
    app.consoleSessions.requireCsrf(request, session);
    await deleteSession(db, session.id);
    reply.clearCookie(CONSOLE_COOKIE, consoleCookieOptions(request));
    return { success: true, data: {} };
  });
};
