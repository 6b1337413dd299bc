/**
 * Multipart storage layer: what the multipart routes call to store an upload in parts.
 *
 *   const store = multipartStoreFor(driver);            // driver.multipart, or an error
 *   const { partSize, partCount } = store.planParts?.(size) ?? choosePartSize(size);
 *   // choosePartSize: >= 5 MiB, whole MiB, <= 10,000 parts; fs plans about 32 parts of up to 32 MiB
 *   const { uploadId } = await store.begin({ key, size, partSize, partCount, contentType });
 *
 * Gateway mode (every driver): each part request streams through Trove.
 *   const part = await store.putPart({ key, uploadId, partNumber, partSize, body: req.raw,
 *     expectedSize: plannedPartSize(size, partSize, partNumber) });
 *   // -> { partNumber, size, etag, partHash, blockDigests }: record it in the session (database).
 *   //    Rejects with SizeMismatchError when the body is not exactly expectedSize bytes; then
 *   //    forget any earlier record of that part number (on fs the bytes were overwritten).
 *   //    Uploading a part number again replaces it; parts may arrive in any order and on any
 *   //    server instance.
 *   const { size } = await store.complete({ key, uploadId,
 *     parts: recorded.map((p) => ({ number: p.partNumber, etag: p.etag, size: p.size })) });
 *   const hash = combinePartBlockDigests(recorded.map((p) => ({ number: p.partNumber,
 *     blockDigests: p.blockDigests })));      // equals hashStream() of the same bytes
 *
 * Direct mode (s3 only, `store.supportsDirect`): clients PUT parts straight to storage.
 *   parts[i] = await store.presignPart!({ key, uploadId, partNumber: i + 1, expiresInSeconds });
 *   // at complete:
 *   const listed = await store.listParts!({ key, uploadId });   // all pages, sorted
 *   // check numbering 1..partCount and sizes against plannedPartSize(), then
 *   await store.complete({ key, uploadId, parts: listed });
 *   // Trove never saw the bytes, so the content hash needs a read of the stored object:
 *   // (await hashStoredObject(driver, key)).hash   (src/content-hash/, in block-aligned ranges)
 *
 * Abandoned sessions: `store.abort({ key, uploadId })` (idempotent). On fs, `listPending()`
 * also finds uploads the database never learnt about (a crash right after `begin`).
 *
 * Errors: UploadNotFoundError (unknown/aborted/completed upload or wrong key), InvalidPartError
 * (part number or size outside the plan, complete list with gaps, duplicates, wrong sizes or
 * ETags), InvalidUploadPlanError (bad size/partSize/partCount at begin), SizeMismatchError from
 * ../driver.ts (body length), InvalidObjectKeyError (key).
 *
 * Content hash: src/content-hash/ (1 MiB blocks, sha256 over the block digests, plain hex).
 * fs layout and atomicity: fs-multipart.ts. S3 specifics: s3-multipart.ts, s3-client.ts.
 */
import type { StorageDriver } from "../driver.js";
import type { MultipartStore } from "./types.js";

export { InvalidPartError, InvalidUploadPlanError, UploadNotFoundError } from "./errors.js";
export { FS_MULTIPART_DIR, FsMultipartStore } from "./fs-multipart.js";
export {
  assertCompleteParts,
  choosePartSize,
  choosePartSizeForParts,
  MAX_OBJECT_SIZE,
  MAX_PART_SIZE,
  MAX_PARTS,
  MIN_PART_SIZE,
  type PartPlan,
  plannedPartSize,
} from "./part-plan.js";
export { S3MultipartStore } from "./s3-multipart.js";
export type * from "./types.js";

/** The multipart store a storage driver declares (`StorageDriver.multipart`). */
export function multipartStoreFor(driver: StorageDriver): MultipartStore {
  if (driver.multipart) return driver.multipart;
  throw new Error(`Storage driver "${driver.kind}" has no multipart support`);
}
