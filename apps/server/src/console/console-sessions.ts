/**
 * `app.consoleSessions`: what a request's `trove_console` cookie stands for. The auth plugin
 * (src/plugins/auth.ts) asks it only when a request carries neither `x-api-key` nor
 * `Authorization`, so an explicit credential always wins and the cookie never mixes with one.
 *
 *   await app.consoleSessions.authenticate(request, "workspace")  // the session's key, or null
 *   await app.consoleSessions.authenticate(request, "admin")      // the admin session, or null
 *
 * null means "no credential" (the caller answers its own 401): no cookie, no such session, one
 * that has ended (idle past `idleSeconds`, or 12 h old; its row is deleted), one whose key was
 * revoked or expired or whose workspace was disabled, an admin session after the admin token
 * changed, a session of the other kind, or TROVE_CONSOLE=off. A live session of the right kind
 * without its CSRF token in `x-csrf-token` is refused with 403 CSRF_REJECTED. Each authenticated
 * request slides the idle timeout, with at most one write a minute per session.
 */
import { timingSafeEqual } from "node:crypto";
import { ERROR_CATALOGUE } from "@trove/schema";
import type { FastifyRequest } from "fastify";
import type { ServerConfig } from "../config.js";
import { HttpError } from "../errors/http-error.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import { isApiKeyExpired } from "../keys/api-keys.js";
import { CONSOLE_COOKIE, CSRF_HEADER } from "./session-cookie.js";
import {
  type ConsoleSessionKind,
  deleteSession,
  readSession,
  type StoredSession,
  sha256Hex,
  touchSession,
} from "./session-store.js";

/** The longest the stored last use may lag behind (never more than a quarter of the idle timeout). */
const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface ConsoleSessions {
  /** The cookie's live session (any kind), without the CSRF check: the session endpoints' read. */
  current(request: FastifyRequest): Promise<StoredSession | null>;
  /** The live session of `kind`, CSRF checked and its idle timeout slid; null: no credential. */
  authenticate(request: FastifyRequest, kind: ConsoleSessionKind): Promise<StoredSession | null>;
  /** Throws 403 CSRF_REJECTED unless the request carries the session's CSRF token. */
  requireCsrf(request: FastifyRequest, session: StoredSession): void;
}

export interface ConsoleSessionDeps {
  db: Pick<PrismaClient, "consoleSession" | "$queryRaw">;
  config: Pick<ServerConfig, "console" | "adminToken">;
  parseCookie: (header: string) => Record<string, string | undefined>;
}

/** Equal strings, compared in constant time over their digests (lengths leak nothing either). */
function sameSecret(expected: string, given: string): boolean {
  return timingSafeEqual(Buffer.from(sha256Hex(expected), "hex"), Buffer.from(sha256Hex(given), "hex"));
}

export function createConsoleSessions(deps: ConsoleSessionDeps): ConsoleSessions {
  const { db, config } = deps;
  const idleMs = config.console.idleSeconds * 1000;
  const resolutionMs = Math.min(LAST_SEEN_RESOLUTION_MS, idleMs / 4);

  const cookieOf = (request: FastifyRequest) => {
    const header = request.headers.cookie;
    return header ? deps.parseCookie(header)[CONSOLE_COOKIE] : undefined;
  };

  /** Whether what the session stands for still holds: its key active, or the same admin token. */
  const credentialHolds = (session: StoredSession, now: number) => {
    if (session.kind === "admin") {
      const token = config.adminToken;
      return (
        token !== undefined &&
        session.adminTokenHash !== null &&
        sameSecret(session.adminTokenHash, sha256Hex(token))
      );
    }
    return session.key !== null && session.key.type === "private" && !isApiKeyExpired(session.key, now);
  };

  const current = async (request: FastifyRequest) => {
    if (!config.console.enabled) return null;
    const cookie = cookieOf(request);
    if (!cookie) return null;
    const session = await readSession(db, cookie);
    if (!session) return null;
    const now = Date.now();
    if (session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + idleMs <= now) {
      await deleteSession(db, session.id);
      return null;
    }
    return credentialHolds(session, now) ? session : null;
  };

  const requireCsrf = (request: FastifyRequest, session: StoredSession) => {
    const header = request.headers[CSRF_HEADER];
    const given = Array.isArray(header) ? header[0] : header;
    if (given === undefined || !sameSecret(session.csrfToken, given)) {
      throw new HttpError(403, ERROR_CATALOGUE.CSRF_REJECTED.message, { errorCode: "CSRF_REJECTED" });
    }
  };

  return {
    current,
    requireCsrf,
    async authenticate(request, kind) {
      const session = await current(request);
      if (!session || session.kind !== kind) return null;
      requireCsrf(request, session);
      const now = Date.now();
      if (now - session.lastSeenAt.getTime() >= resolutionMs) await touchSession(db, session.id, now);
      return session;
    },
  };
}
