/**
 * Whether an upload may apply its store-time `transform` at all:
 *
 *   await checkStoreTimeTransform(db, { workspaceId, transform: "w_200", credential: "public", policy })
 *     -> "w_200" (trimmed; undefined when none was asked), or 403 TRANSFORM_NOT_ALLOWED
 *
 * - `allow_transforms: false` in the credential's policy refuses it.
 * - A public key or an upload token in a workspace in strict mode is refused too: strict mode
 *   renders only named transforms and signed URLs, and named steps do not apply at upload
 *   (src/media/read-transform.ts), so a browser could otherwise store, and so serve from a plain
 *   URL, any rendition strict mode refuses to render (issue #30). A private key passes strict
 *   mode, as a signed URL does.
 *
 * The pixel and upscale caps are the MediaLimits delivery renders under (processImage applies
 * them); the stored output's byte size is judged after the render (register-file.ts).
 */
import type { PrismaClient } from "../generated/prisma/client.js";
import type { UploadCredential } from "./upload-credential.js";
import { checkTransformAllowed, transformNotAllowed, type UploadPolicy } from "./upload-policy.js";

export interface StoreTimeTransformInput {
  workspaceId: string;
  /** As the upload sent it; blank or absent: no transform. */
  transform: string | undefined;
  credential: UploadCredential;
  policy: UploadPolicy | undefined;
}

export const STRICT_STORE_TIME_MESSAGE =
  "This workspace is in strict mode: store-time transforms need a private key";

export async function checkStoreTimeTransform(
  db: Pick<PrismaClient, "workspace">,
  input: StoreTimeTransformInput,
): Promise<string | undefined> {
  checkTransformAllowed(input.policy, input.transform);
  const transform = input.transform?.trim();
  if (!transform || input.credential === "private") return transform || undefined;
  // Read now, not cached: a change of the mode holds for the next upload on every instance.
  const workspace = await db.workspace.findUnique({
    where: { id: input.workspaceId },
    select: { strictTransforms: true },
  });
  if (workspace?.strictTransforms) throw transformNotAllowed(STRICT_STORE_TIME_MESSAGE);
  return transform;
}
