/**
 * A multipart session ending without a file (abandoned, its content refused, or expired):
 *
 *   endSession(db, session, from, status)   one transaction: the conditional status change and,
 *                                           for a token's session, the count it reserved at start
 *                                           given back; false when `from` no longer matched
 *   releaseStaged(deps, session)            its staged bytes gone: the storage upload aborted
 *                                           (fs: the `.multipart/<id>` directory; s3:
 *                                           AbortMultipartUpload, in both modes), an object a
 *                                           failed complete may have assembled, its part rows
 *
 * The reservation goes with the status change, so it is given back exactly once however many
 * instances race to end the same session. Storage is released after, outside the transaction;
 * both steps are idempotent, so a failed release can simply be tried again.
 */
import type { MultipartSession, Prisma, PrismaClient } from "../generated/prisma/client.js";
import { releaseUploadToken } from "../keys/upload-tokens.js";
import type { MultipartDeps } from "./multipart-deps.js";

type Ending = Pick<MultipartSession, "id" | "uploadTokenId">;
type Staged = Pick<MultipartSession, "id" | "storageKey" | "storageUploadId">;

export async function endSession(
  db: Pick<PrismaClient, "$transaction">,
  session: Ending,
  from: Prisma.MultipartSessionWhereInput,
  status: "aborted" | "expired",
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.multipartSession.updateMany({
      where: { ...from, id: session.id },
      data: { status },
    });
    if (count !== 1) return false;
    if (session.uploadTokenId) await releaseUploadToken(tx, session.uploadTokenId);
    return true;
  });
}

export async function releaseStaged(deps: Pick<MultipartDeps, "db" | "store" | "storage">, session: Staged) {
  if (session.storageKey && session.storageUploadId) {
    await deps.store.abort({ key: session.storageKey, uploadId: session.storageUploadId });
    // Sessions never completed own no file, so an object at their key is a leftover.
    await deps.storage.delete(session.storageKey);
  }
  await deps.db.multipartPart.deleteMany({ where: { sessionId: session.id } });
}
