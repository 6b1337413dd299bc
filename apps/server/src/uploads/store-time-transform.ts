/**
 * The store-time `transform` an upload may apply, judged as the delivery host judges a URL's:
 *
 *   await storeTimeTransform(db, { workspaceId, transform: "t_avatar", credential: "public", policy })
 *     -> "w_256,h_256,c_fill"   (named steps written out; undefined when none was asked)
 *
 * - `allow_transforms: false` in the credential's policy: 403 TRANSFORM_NOT_ALLOWED.
 * - A public key or an upload token is held to the workspace's strict mode as an unsigned
 *   delivery URL is (only `t_<name>` steps, else 403): otherwise a browser could store, and so
 *   serve from a plain URL, any rendition strict mode refuses to render (issue #30). A private
 *   key passes strict mode, as a signed URL does.
 * - Named steps are written out for every credential, so what strict mode asks for works here.
 *
 * The pixel and upscale caps are the MediaLimits delivery renders under (processImage applies
 * them); the stored output's byte size is judged after the render (register-file.ts).
 */
import type { PrismaClient } from "../generated/prisma/client.js";
import { resolveTransform } from "../transforms/resolve-transform.js";
import type { UploadCredential } from "./upload-credential.js";
import { checkTransformAllowed, type UploadPolicy } from "./upload-policy.js";

export interface StoreTimeTransformInput {
  workspaceId: string;
  /** As the upload sent it; blank or absent: no transform. */
  transform: string | undefined;
  credential: UploadCredential;
  policy: UploadPolicy | undefined;
}

export async function storeTimeTransform(
  db: Pick<PrismaClient, "$queryRaw">,
  input: StoreTimeTransformInput,
): Promise<string | undefined> {
  checkTransformAllowed(input.policy, input.transform);
  const transform = input.transform?.trim();
  if (!transform) return undefined;
  return resolveTransform(db, input.workspaceId, transform, { signed: input.credential === "private" });
}
