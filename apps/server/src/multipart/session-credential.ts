/**
 * The credential that started a multipart session, and what it still may do (issue #30).
 *
 * A session belongs to the credential that started it: the same upload token (`uploadTokenId`),
 * or, for a session started with a key, the same API key (`createdBy`) presented as a key, not
 * through a token it minted. Only that credential may complete the session (and so read its
 * file's URL), even again; any other credential of the workspace gets the same 404 "Session not
 * found" as an unknown id, so a leaked session id says nothing. A private key of the workspace
 * may also abandon (DELETE) any session of it: it can delete the file the session would become.
 *
 * Session ids travel in every part URL; the part gateway takes no credential, so it asks
 * `startingCredentialAlive` whether the credential behind the session still stands: its key
 * neither revoked nor expired, its token not expired and the token's minting key neither revoked
 * nor expired, its workspace not disabled. Complete needs no such look-up: it takes only the
 * starting credential, and authentication refuses that credential once it is dead.
 */
import type { MultipartSession, PrismaClient } from "../generated/prisma/client.js";
import type { AuthContext } from "../plugins/auth.js";

type SessionOwner = Pick<MultipartSession, "createdBy" | "uploadTokenId">;
type Caller = Pick<AuthContext, "keyId" | "tokenId">;

/** Whether `auth` is the very credential that started the session. */
export function isStartingCredential(session: SessionOwner, auth: Caller): boolean {
  if (session.uploadTokenId) return auth.tokenId === session.uploadTokenId;
  // A token authenticates with its minting key's id: a key's session is not its tokens'.
  return auth.tokenId === undefined && session.createdBy !== null && auth.keyId === session.createdBy;
}

/** Whether `auth` may abandon the session: its starting credential, or a private key of its workspace. */
export function mayAbandon(session: SessionOwner, auth: Caller & Pick<AuthContext, "keyType">): boolean {
  return isStartingCredential(session, auth) || auth.keyType === "private";
}

/**
 * Whether the credential that started the session still stands (one query, the database's clock,
 * as authentication judges it). A session without a recorded key has no credential to stand on.
 */
export async function startingCredentialAlive(
  db: Pick<PrismaClient, "$queryRaw">,
  session: SessionOwner & Pick<MultipartSession, "workspaceId">,
): Promise<boolean> {
  if (!session.createdBy) return false;
  const [row] = await db.$queryRaw<{ alive: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM workspaces w
        JOIN api_keys k ON k.workspace_id = w.id
      WHERE w.id = ${session.workspaceId}::uuid AND w.disabled_at IS NULL
        AND k.id = ${session.createdBy}::uuid AND k.revoked_at IS NULL
        AND (k.expires_at IS NULL OR k.expires_at > now())
        AND (${session.uploadTokenId}::uuid IS NULL OR EXISTS (
          SELECT 1 FROM upload_tokens t
          WHERE t.id = ${session.uploadTokenId}::uuid AND t.api_key_id = k.id AND t.expires_at > now()))
    ) AS alive`;
  return row?.alive === true;
}
