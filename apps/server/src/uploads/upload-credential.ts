/**
 * What kind of credential an upload came with, as far as registration cares: `public` for a
 * public key or an upload token (`request.auth.keyType`), which may upload but read nothing
 * through the API; `private` for a private key, or an embedder registering bytes itself.
 *
 * A public credential is held to strict mode at store time (./store-time-transform.ts) and is
 * always told `is_duplicate: false` (./upload-response.ts): a true answer would tell it that the
 * workspace holds a file with exactly its bytes, private ones included, which it cannot read.
 */
export type UploadCredential = "public" | "private";

/** `is_duplicate` as the uploader may be told it. */
export function reportedDuplicate(credential: UploadCredential, isDuplicate: boolean): boolean {
  return credential === "private" && isDuplicate;
}
