/**
 * Console sessions in the database (table `console_sessions`), so that any instance serves them
 * and deleting a row ends the session everywhere at once.
 *
 * The cookie's value is 32 random bytes (base64url); the row's id is its SHA-256, so a leaked
 * table holds no live cookie. The row keeps what the session stands for (the key's id, or a
 * SHA-256 of the admin token), never the secret it was opened with. `readSession` joins the key
 * and its workspace in one statement: every request re-reads them, so a revoked key, a disabled
 * workspace or a rotated admin token ends the session on its next request.
 */
import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client.js";
import type { ActiveApiKey } from "../keys/api-keys.js";
import { CONSOLE_SESSION_LIFETIME_MS } from "./console-config.js";

export type ConsoleSessionKind = "workspace" | "admin";

export const sha256Hex = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

/** A session row with what it stands for, as one request reads it. */
export interface StoredSession {
  /** SHA-256 of the cookie: the row's id. */
  id: string;
  kind: ConsoleSessionKind;
  csrfToken: string;
  lastSeenAt: Date;
  expiresAt: Date;
  adminTokenHash: string | null;
  /** The session's key while it is active (not revoked, workspace not disabled); null otherwise. */
  key: (ActiveApiKey & { workspaceName: string }) | null;
}

type Db = Pick<PrismaClient, "consoleSession" | "$queryRaw">;

/** The joined row: the session's columns, then its key's and workspace's (null when not active). */
type SessionRow = Omit<StoredSession, "key"> & {
  keyId: string | null;
  keyType: "public" | "private" | null;
  workspaceId: string | null;
  workspaceNo: string | null;
  workspaceName: string | null;
  policy: unknown;
  keyExpiresAt: Date | null;
  embeddedMetadata: string | null;
};

export interface NewSession {
  kind: ConsoleSessionKind;
  apiKeyId?: string;
  /** The admin token's SHA-256 (admin sessions). */
  adminTokenHash?: string;
}

/** Opens a session; returns the cookie's value (shown once, never stored) and its CSRF token. */
export async function createSession(
  db: Db,
  session: NewSession,
  now: number = Date.now(),
): Promise<{ cookie: string; csrfToken: string }> {
  const cookie = randomBytes(32).toString("base64url");
  const csrfToken = randomBytes(32).toString("base64url");
  await db.consoleSession.create({
    data: {
      id: sha256Hex(cookie),
      kind: session.kind,
      apiKeyId: session.apiKeyId ?? null,
      adminTokenHash: session.adminTokenHash ?? null,
      csrfToken,
      lastSeenAt: new Date(now),
      expiresAt: new Date(now + CONSOLE_SESSION_LIFETIME_MS),
    },
  });
  return { cookie, csrfToken };
}

/** The session a cookie names, with its key if still active; null when there is no such row. */
export async function readSession(db: Db, cookie: string): Promise<StoredSession | null> {
  const [row] = await db.$queryRaw<SessionRow[]>`
    SELECT s.id, s.kind, s.csrf_token AS "csrfToken", s.last_seen_at AS "lastSeenAt",
      s.expires_at AS "expiresAt", s.admin_token_hash AS "adminTokenHash",
      k.id AS "keyId", k.type::text AS "keyType", k.workspace_id AS "workspaceId",
      w.workspace_no AS "workspaceNo", w.name AS "workspaceName", k.policy,
      k.expires_at AS "keyExpiresAt", w.embedded_metadata AS "embeddedMetadata"
    FROM console_sessions s
      LEFT JOIN api_keys k ON k.id = s.api_key_id AND k.revoked_at IS NULL
      LEFT JOIN workspaces w ON w.id = k.workspace_id AND w.disabled_at IS NULL
    WHERE s.id = ${sha256Hex(cookie)}`;
  if (!row) return null;
  const active =
    row.keyId !== null && row.keyType !== null && row.workspaceId !== null && row.workspaceNo !== null;
  return {
    id: row.id,
    kind: row.kind,
    csrfToken: row.csrfToken,
    lastSeenAt: row.lastSeenAt,
    expiresAt: row.expiresAt,
    adminTokenHash: row.adminTokenHash,
    key: active
      ? {
          id: row.keyId as string,
          type: row.keyType as "public" | "private",
          workspaceId: row.workspaceId as string,
          workspaceNo: row.workspaceNo as string,
          workspaceName: row.workspaceName ?? "",
          policy: row.policy,
          expiresAt: row.keyExpiresAt,
          embeddedMetadata: row.embeddedMetadata,
        }
      : null,
  };
}

/** Slides the idle timeout: the request at `now` counts as the session's last use. */
export async function touchSession(db: Db, id: string, now: number): Promise<void> {
  await db.consoleSession.updateMany({ where: { id }, data: { lastSeenAt: new Date(now) } });
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.consoleSession.deleteMany({ where: { id } });
}

/** Deletes the rows of sessions that have ended (past their lifetime, or idle past `idleMs`). */
export async function deleteEndedSessions(db: Db, idleMs: number, now: number = Date.now()): Promise<void> {
  await db.consoleSession.deleteMany({
    where: { OR: [{ expiresAt: { lte: new Date(now) } }, { lastSeenAt: { lte: new Date(now - idleMs) } }] },
  });
}
