/**
 * The upload policy a multipart session is held to at complete: that of the credential that
 * started it, whatever credential sends the complete (a token's session completed with another
 * key still obeys the token, and still counts against it).
 *
 *   started by an upload token -> the token's policy (a vanished token admits nothing)
 *   started by a public key    -> its own policy, else the server-wide default
 *   started by a private key   -> none
 */
import type { MultipartSession } from "../generated/prisma/client.js";
import { findUploadTokenPolicy, storedPolicy } from "../keys/upload-tokens.js";
import type { UploadPolicy } from "../uploads/upload-policy.js";
import type { MultipartDeps } from "./multipart-deps.js";

/** What a vanished token's session may still store: nothing. */
const NOTHING: UploadPolicy = { allowed_types: ["none/none"], allow_multipart: false };

export async function policyOfSession(
  deps: Pick<MultipartDeps, "db" | "publicKeyPolicy">,
  session: Pick<MultipartSession, "uploadTokenId" | "createdBy">,
): Promise<UploadPolicy | undefined> {
  if (session.uploadTokenId) return (await findUploadTokenPolicy(deps.db, session.uploadTokenId)) ?? NOTHING;
  if (!session.createdBy) return undefined;
  const key = await deps.db.apiKey.findUnique({
    where: { id: session.createdBy },
    select: { type: true, policy: true },
  });
  if (key?.type !== "public") return undefined;
  return key.policy === null ? deps.publicKeyPolicy : storedPolicy(key.policy);
}
