/**
 * `auth` plugin: API-key authentication for every route, decided per route by `config.auth`:
 *
 *   app.get("/api/v1/files", { config: { auth: "private" } }, handler)   // private key only
 *   app.post("/api/v1/uploads", { config: { auth: "any" } }, handler)    // public or private
 *   app.get("/healthz", { config: { auth: "none" } }, handler)           // no key
 *
 * Default when `config.auth` is not set: "private" for paths under /api/, "admin" under /admin/,
 * "none" elsewhere, so a new API or admin route is never accidentally public. Runs as an onRequest hook (before the body is
 * read): a request without a valid key gets 401 even if its body is malformed; a public key on a
 * private route gets 403.
 *
 * The key comes from `x-api-key: <key>` or `Authorization: Bearer <key>` (x-api-key wins). On
 * success `request.auth` is `{ workspaceId, workspaceNo, keyId, keyType, policy?, tokenId? }`. Keys
 * are looked up by SHA-256 hash (one indexed query) behind a cache whose entries live at most
 * `config.keyCacheMs` (1 s by default): another process may revoke a key (`trove-server keys
 * revoke`, another instance), and every instance refuses it within that time.
 *
 * Upload tokens (`trove_ut_...`, src/keys/upload-tokens.ts) authenticate like public keys:
 * `keyType` "public", `keyId` the minting key (what `created_by` records), `tokenId` and the
 * token's `policy` set. Unknown: 401 like a bad key; expired: 401 TOKEN_EXPIRED; on a private
 * route: 403; used up: 403 TOKEN_EXHAUSTED before any body is read (except on routes with
 * `config.acceptsSpentUploadToken`, multipart complete, which spends nothing new by itself).
 * A public key carries its own policy, or the server-wide default (`config.publicKeyPolicy`).
 *
 * A key past its `expiresAt` gets 401 KEY_EXPIRED (checked on cached entries too, so a cache entry
 * never outlives the key); a key of a disabled workspace is not found (401), nor are its upload
 * tokens. `config.auth: "admin"` (the admin API, src/routes/admin-*.ts) takes only the server's
 * admin token as a bearer credential (src/admin/admin-token.ts), never a workspace key; such a
 * request has no `request.auth`. `app.activeKeys` is the key cache (built in src/services.ts), for the
 * admin API to drop what it revokes or disables at once on this instance.
 *
 * A request with neither `x-api-key` nor `Authorization` may carry a console session's cookie
 * (src/console/console-sessions.ts): a workspace session stands for its private key on API routes
 * (re-read on every request, never cached, so revoking the key ends the session at once), an
 * admin session for the admin token on admin routes; either needs its `x-csrf-token` (403
 * CSRF_REJECTED), and a session of the other kind is no credential (401).
 */
import { type EmbeddedMetadataMode, ERROR_MESSAGES } from "@trove/schema";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { bearerTokenOf, isAdminToken } from "../admin/admin-token.js";
import { HttpError } from "../errors/http-error.js";
import { type ActiveApiKey, hashApiKey, isApiKeyExpired, isPlausibleApiKey } from "../keys/api-keys.js";
import {
  findUploadToken,
  isUploadTokenShaped,
  storedPolicy,
  tokenExhausted,
  tokenExpired,
} from "../keys/upload-tokens.js";
import { workspaceEmbeddedMetadata } from "../uploads/embedded-metadata-rule.js";
import type { UploadPolicy } from "../uploads/upload-policy.js";

export type AuthMode = "any" | "private" | "none" | "admin";

/** The 401 of a request to the admin API without the admin token. */
export const ADMIN_UNAUTHORIZED_MESSAGE = "Invalid or missing admin token";
/** The 401 of a key past its expiry. */
export const KEY_EXPIRED_MESSAGE = "API key expired";

export interface AuthContext {
  workspaceId: string;
  workspaceNo: string;
  keyId: string;
  keyType: "public" | "private";
  /** What uploads with this credential may store; absent: no restriction (private keys). */
  policy?: UploadPolicy;
  /** Set when the credential is an upload token: its id (files are counted against it). */
  tokenId?: string;
  /** The workspace's `embedded_metadata` setting; null: the default rule (src/uploads/embedded-metadata-rule.ts). */
  embeddedMetadata: EmbeddedMetadataMode | null;
}

/** How long `lastUsedAt` may lag behind: at most one write per key per minute. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The key a request carries, or undefined. */
export function apiKeyFromRequest(request: Pick<FastifyRequest, "headers">): string | undefined {
  const header = request.headers["x-api-key"];
  const direct = Array.isArray(header) ? header[0] : header;
  if (direct && direct.trim() !== "") return direct.trim();
  return bearerTokenOf(request);
}

/**
 * The auth mode that applies to a request (route config, else the /api/ default). The default is
 * read from the route's pattern, not the raw URL: `/%61pi/v1/...` is routed to an /api/ route but
 * does not start with "/api/".
 */
export function authModeOf(request: FastifyRequest): AuthMode {
  const configured = request.routeOptions.config?.auth;
  if (configured) return configured;
  const pattern = request.routeOptions.url ?? request.url;
  if (pattern.startsWith("/admin/")) return "admin";
  return pattern.startsWith("/api/") ? "private" : "none";
}

export const authPlugin = fp(
  async (app) => {
    app.decorateRequest("auth", null as unknown as AuthContext);
    const lastUsedWrites = new Map<string, number>();
    const pending = new Set<Promise<unknown>>();
    const { activeKeys } = app;

    const touch = (keyId: string) => {
      const now = Date.now();
      if ((lastUsedWrites.get(keyId) ?? 0) > now - LAST_USED_RESOLUTION_MS) return;
      lastUsedWrites.set(keyId, now);
      const write = app.db.apiKey
        .update({ where: { id: keyId }, data: { lastUsedAt: new Date(now) } })
        .catch((error: unknown) => app.log.debug({ err: error }, "could not record key use"))
        .finally(() => pending.delete(write));
      pending.add(write);
    };

    app.addHook("onRequest", async (request: FastifyRequest, _reply: FastifyReply) => {
      if (request.is404) return;
      const mode = authModeOf(request);
      if (mode === "none") return;
      if (mode === "admin") {
        const token = bearerTokenOf(request);
        const allowed =
          token === undefined && apiKeyFromRequest(request) === undefined
            ? (await app.consoleSessions.authenticate(request, "admin")) !== null
            : isAdminToken(app.config.adminToken, token);
        if (!allowed) throw new HttpError(401, ADMIN_UNAUTHORIZED_MESSAGE);
        return;
      }
      const key = apiKeyFromRequest(request);
      if (!key) {
        const session = await app.consoleSessions.authenticate(request, "workspace");
        if (!session?.key) throw new HttpError(401, ERROR_MESSAGES.unauthorized);
        return accept(request, session.key, mode);
      }
      if (isUploadTokenShaped(key)) {
        request.auth = await authenticateToken(request, key, mode);
        return;
      }
      const record = isPlausibleApiKey(key) ? await activeKeys.get(hashApiKey(key)) : null;
      if (!record) throw new HttpError(401, ERROR_MESSAGES.unauthorized);
      accept(request, record, mode);
    });

    /** A found, active key: refused when expired or of the wrong kind, else the request's auth. */
    const accept = (request: FastifyRequest, record: ActiveApiKey, mode: AuthMode) => {
      if (isApiKeyExpired(record))
        throw new HttpError(401, KEY_EXPIRED_MESSAGE, { errorCode: "KEY_EXPIRED" });
      if (mode === "private" && record.type !== "private") {
        throw new HttpError(403, ERROR_MESSAGES.privateKeyRequired);
      }
      request.auth = {
        workspaceId: record.workspaceId,
        workspaceNo: record.workspaceNo,
        keyId: record.id,
        keyType: record.type,
        embeddedMetadata: workspaceEmbeddedMetadata(record.embeddedMetadata),
      };
      if (record.type === "public") {
        const policy = record.policy === null ? app.config.publicKeyPolicy : storedPolicy(record.policy);
        if (policy) request.auth.policy = policy;
      }
      touch(record.id);
    };

    const authenticateToken = async (request: FastifyRequest, token: string, mode: AuthMode) => {
      const found = await findUploadToken(app.db, token);
      if (!found) throw new HttpError(401, ERROR_MESSAGES.unauthorized);
      if (mode === "private") throw new HttpError(403, ERROR_MESSAGES.privateKeyRequired);
      if (found.expired) throw tokenExpired();
      if (found.exhausted && !request.routeOptions.config?.acceptsSpentUploadToken) throw tokenExhausted();
      return {
        workspaceId: found.workspaceId,
        workspaceNo: found.workspaceNo,
        keyId: found.apiKeyId,
        keyType: "public" as const,
        policy: found.policy,
        tokenId: found.id,
        embeddedMetadata: workspaceEmbeddedMetadata(found.embeddedMetadata),
      };
    };

    app.addHook("onClose", async () => {
      await Promise.allSettled([...pending]);
    });
  },
  { name: "trove-auth", fastify: "5.x", dependencies: ["trove-db", "trove-console-sessions"] },
);
