/**
 * Trove's endpoint 22 (DELETE /api/v1/multipart/:sessionId): a client gives up a session. Its
 * staged bytes are removed (fs: the `.multipart/<id>` directory; s3: AbortMultipartUpload, in
 * gateway and direct mode alike), its part rows deleted, a token's reserved count given back.
 *
 * - Who: the credential that started the session, or any private key of its workspace (it may
 *   delete the file the session would become anyway). Anyone else, an unknown id or another
 *   workspace's: 404 "Session not found", the multipart group's envelope.
 * - `pending` (even past `expires_at`, not yet swept) -> `aborted`: 200 `{ success: true }`.
 * - `aborted` or `expired`: 200 again (idempotent); storage is released once more, which is a
 *   no-op when it is gone, and finishes a release an earlier attempt could not.
 * - `completing` while another call works on it: 409; `completed`: 409 (the session became a
 *   file; delete the file instead). A `completing` session nobody has touched for
 *   COMPLETING_STALE_MS belongs to a dead instance and is abandoned like a `pending` one.
 */
import { HttpError, notFound } from "../errors/index.js";
import { isUuid } from "../errors/params.js";
import type { AuthContext } from "../plugins/auth.js";
import { COMPLETING_STALE_MS } from "./complete-session.js";
import { endSession, releaseStaged } from "./end-session.js";
import type { MultipartDeps } from "./multipart-deps.js";
import { mayAbandon } from "./session-credential.js";

/** Conditional updates lost to a racing complete or sweep before we give up with a 409. */
const MAX_ATTEMPTS = 5;

export async function abandonSession(
  deps: MultipartDeps,
  auth: Pick<AuthContext, "workspaceId" | "keyId" | "keyType" | "tokenId">,
  sessionId: string,
  now: () => number = Date.now,
): Promise<void> {
  if (!isUuid(sessionId)) throw notFound("multipart");
  const id = sessionId.toLowerCase();
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const session = await deps.db.multipartSession.findFirst({
      where: { id, workspaceId: auth.workspaceId },
    });
    if (!session || !mayAbandon(session, auth)) throw notFound("multipart");
    switch (session.status) {
      case "completed":
        throw new HttpError(409, "Session already completed; delete its file instead");
      case "completing":
        if (session.updatedAt.getTime() > now() - COMPLETING_STALE_MS) {
          throw new HttpError(409, "Session is being completed; try again shortly");
        }
        break;
      case "aborted":
      case "expired":
        await releaseStaged(deps, session);
        return;
      case "pending":
        break;
    }
    const from = { status: session.status, updatedAt: session.updatedAt };
    if (await endSession(deps.db, session, from, "aborted")) {
      await releaseStaged(deps, session);
      return;
    }
  }
  throw new HttpError(409, "Session is changing; try again shortly");
}
