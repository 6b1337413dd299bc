/**
 * Which `embedded_metadata` mode an upload is stored under (../media/embedded-metadata/):
 *
 *   1. the default: a public key or an upload token strips (`strip`), a private key keeps
 *      (`keep`): a public key ships in web pages and phones put their owner's home in the photos
 *      it uploads, while a private key is server-side and may be archiving originals;
 *   2. the workspace's setting (admin API, `trove-server workspaces embedded-metadata`) replaces
 *      the default for every credential;
 *   3. a public credential's upload policy (a token's, a public key's) replaces both, and binds;
 *   4. the upload's own `embedded_metadata`: with a public credential it may only make the mode
 *      stricter (strip > strip-location > keep: asking `keep` of a stripping key still strips);
 *      with a private key it decides.
 */
import { type EmbeddedMetadataMode, embeddedMetadataModeSchema } from "@trove/schema";
import type { UploadCredential } from "./upload-credential.js";

export interface EmbeddedMetadataChoice {
  credential: UploadCredential;
  /** The workspace's setting; null or absent: the default rule. */
  workspace?: EmbeddedMetadataMode | null | undefined;
  /** The public credential's policy's `embedded_metadata`. */
  policy?: EmbeddedMetadataMode | undefined;
  /** The upload's own field. */
  requested?: EmbeddedMetadataMode | undefined;
}

const STRICTNESS: Record<EmbeddedMetadataMode, number> = { keep: 0, "strip-location": 1, strip: 2 };

export function embeddedMetadataMode(choice: EmbeddedMetadataChoice): EmbeddedMetadataMode {
  const isPublic = choice.credential === "public";
  const fallback = choice.workspace ?? (isPublic ? "strip" : "keep");
  if (!isPublic) return choice.requested ?? fallback;
  const bound = choice.policy ?? fallback;
  const requested = choice.requested;
  return requested !== undefined && STRICTNESS[requested] > STRICTNESS[bound] ? requested : bound;
}

/**
 * A workspace's stored setting (a free VarChar column): null when unset; a value this server
 * does not know (written by hand, or by a newer version) is read as the strictest.
 */
export function workspaceEmbeddedMetadata(stored: string | null | undefined): EmbeddedMetadataMode | null {
  if (stored === null || stored === undefined) return null;
  const parsed = embeddedMetadataModeSchema.safeParse(stored);
  return parsed.success ? parsed.data : "strip";
}
