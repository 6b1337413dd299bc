/**
 * # Uploads: from stored bytes to a file of the workspace
 *
 * Direct upload (POST /api/v1/uploads), remote-URL upload (POST /api/v1/uploads/remote) and
 * multipart complete (POST /api/v1/multipart/complete) all end the same way: the bytes are in
 * storage under some key, and `registerFile` makes them a file.
 *
 * ## Registration service (for the multipart routes too)
 *
 * ```ts
 * import { registerFile } from "../uploads/index.js";
 *
 * // Store first, outside any transaction, hashing as the bytes pass (multipart: combine the parts'
 * // block digests with combinePartBlockDigests, src/content-hash/block-hash.ts).
 * const fileId = uuidV7();                                    // optional; keeps the object under its file's id
 * const key = objectKey(workspaceId, fileId, fileName);      // src/storage/driver.ts
 * ...assemble / stream the bytes to `key`...
 *
 * const { file, folder, response, isDuplicate, webhook } = await registerFile(app.uploadDeps, {
 *   workspaceId, workspaceNo,            // request.auth.workspaceId / .workspaceNo
 *   storageKey: key, size, hash,         // hash: the b1 block-tree content hash (NOT plain sha256)
 *   fileId,                              // the id the key was built with (default: a new UUIDv7)
 *   head,                                // optional: first SNIFF_HEAD_BYTES; else read with a ranged get
 *   fileName, folder, tags, metadata, customId, randomPrefix,   // as the client sent them (validated)
 *   transform,                           // optional store-time transformation (raster images only)
 *   uploadSource: "multipart",           // "direct" | "remote" | "multipart"
 *   credential: request.auth.keyType,    // "public" (public key, token) | "private" (default)
 *   originalUrl: null,                   // remote uploads: remote_url
 *   createdBy: request.auth.keyId,
 *   webhookUrl,                          // optional: a signed file.uploaded webhook, enqueued with the row
 *   deleteSourceOnError: true,           // default: a failed registration deletes the object at `key`
 *   inTransaction: async (tx, file) => {},  // optional: more DB work committed with the row (only `tx`)
 * });
 * // file: the File row (file.fileNo bigint, file.size bigint, file.storageKey may differ from `key`
 * //       when a transform produced a new format); folder: the deepest folder or null;
 * // response: the flat upload response (uploadResponseSchema) of endpoints 1 and 2.
 * ```
 *
 * Throws `HttpError`s in the upload envelope's terms (status + errorCode; the multipart group's
 * envelope renders them as `{ success: false, error }`): 400 IMAGE_TOO_LARGE (decompression bomb),
 * INVALID_TRANSFORM, UNSUPPORTED_MEDIA_TYPE (transform on a non-image), VALIDATION_FAILED (bad
 * file_name or folder), REMOTE_URL_FORBIDDEN (webhook_url); 413 FILE_TOO_LARGE (a non-fs driver
 * reading an image over the media byte limit). Storage I/O happens before the one short
 * transaction (folder creation, duplicate check, insert, webhook job); nothing is left behind on
 * failure: every object it wrote, and the source unless `deleteSourceOnError: false`, is deleted.
 *
 * What it does, in order: sniff the content from its first bytes (the bytes decide the type, never
 * the client); for raster images run processImage once (dimensions from the header, optional
 * transform) and store a transformed output under `objectKey(ws, fileId, <name>.<new ext>)` (new
 * hash and size; the original object is deleted after commit); record `thumbnailKeyOf(key)` as
 * the thumbnail (rendered by delivery on its first request, src/storage/object-keys.ts); choose the stored
 * name; then, in one transaction, ensure the folder path, check for another file with the same
 * hash (`is_duplicate`) and insert the row (one statement, ./insert-file-row.ts), and enqueue
 * the webhook and the `file.uploaded` deliveries of the workspace's endpoints
 * (src/webhooks/workspace-events.ts). A file in the root, or in a folder whose every level
 * exists (the statement finds and locks them itself), with no webhook, no `inTransaction` and no
 * endpoint subscribed to `file.uploaded` needs no transaction: its one statement is the whole
 * database work.
 *
 * ## Decisions
 *
 * - **Names** (./stored-name.ts): the caller's base name is kept; the extension is always the
 *   stored content's (`photo.png` holding a JPEG is stored as `photo.jpg`; `Photo.JPEG` as
 *   `Photo.jpg`; `notes` holding text as `notes.txt`). A trailing `.xyz` that names no file type
 *   stays part of the base name (`report v1.2` -> `report v1.2.pdf`).
 * - **random_prefix** appends `-<8 random [a-z0-9]>` before the extension (`cat-k3x9q2ab.jpg`),
 *   as the spec's endpoint 1 describes ("a random suffix is appended"); the same for multipart.
 * - **Collisions** without random_prefix never overwrite and never fail: the next free
 *   `name-n.ext` in the folder is taken (`cat.jpg`, `cat-1.jpg`, `cat-2.jpg`), race-free
 *   (INSERT ... ON CONFLICT DO NOTHING, then the next candidate).
 * - **Hash**: the b1 block-tree hash (1 MiB blocks; src/content-hash/block-hash.ts), computed
 *   while the bytes stream in, so a direct, remote and multipart upload of equal content get equal
 *   hashes. `is_duplicate` is true when another file of the workspace already has that hash; the
 *   new file is stored anyway (its own object, its own row). A public credential (`credential:
 *   "public"`: a public key or an upload token) is always told false (./upload-credential.ts).
 * - **Store-time transforms** (./store-time-transform.ts): `allow_transforms: false` refuses them,
 *   and so does strict mode for a public credential (403 TRANSFORM_NOT_ALLOWED); the output is
 *   refused (413 FILE_TOO_LARGE) over the smaller of `maxUploadBytes` and the policy's
 *   `max_file_size`, before it is written.
 * - **Transform on a non-raster file** (PDF, SVG, video, ...): 400 UNSUPPORTED_MEDIA_TYPE, nothing
 *   stored. A raster image whose header cannot be read is stored as plain bytes (width/height
 *   null, no thumbnail) when no transform was asked for, refused (400) when one was. Pixels are
 *   decoded only for a transform: corrupt data behind a sound header is stored and described
 *   (its thumbnail then answers 400 when first rendered).
 * - **webhook_url** is checked before anything is stored: a URL the SSRF guard refuses as
 *   written (private/loopback IP literal outside the trusted ranges, credentials, non-http) is a
 *   400 REMOTE_URL_FORBIDDEN. Host names are resolved and checked at delivery; a refusal then
 *   fails the job at once (no connection). Delivery never delays the response: the job row
 *   commits with the file row and the job runner (src/jobs/start-workers.ts) sends it.
 * - Files are public unless the upload asks `is_private` (or the credential's policy has
 *   `private: true`); a private file's `url` and `thumbnail` are signed URLs
 *   (src/files/file-urls.ts), its plain URL a 404.
 * - A failed request cleans up after itself; an object left by a crash between storing and
 *   committing is removed by the orphan sweep (src/storage/sweep-orphan-objects.ts) once no row
 *   or unfinished multipart session names it.
 *
 * ## Deleting a file's objects
 *
 * `deleteFileObjects(storage, { storageKey, thumbnailKey })` removes the object, the thumbnail
 * and every cached delivery variant (`variantCachePrefix(storageKey)`). Call it after the row is
 * gone (delivery then cannot find the file, so no variant is rendered again).
 */
export { deleteFileObjects, deleteVariants, type FileObjects } from "./delete-file-objects.js";
export {
  type FetchedFile,
  type FetchRemoteOptions,
  fetchRemoteUpload,
  fileNameFromUrl,
} from "./fetch-remote-upload.js";
export { type IngestResult, IngestStream } from "./ingest-stream.js";
export {
  FILE_FIELD,
  type ReceivedDirectUpload,
  type ReceivedFile,
  receiveDirectUpload,
} from "./receive-direct-upload.js";
export { registerFile } from "./register-file.js";
export type { RegisteredFile, RegisterFileInput } from "./register-file-input.js";
export { collisionName, MAX_STORED_NAME_LENGTH, storedFileName } from "./stored-name.js";
export type { UploadDeps } from "./upload-deps.js";
export { fileTooLarge, invalidFields, toUploadError } from "./upload-errors.js";
export { checkEarlyDirectFields, checkRemoteBody, checkWebhook, parseDirectFields } from "./upload-fields.js";
export type { UploadMethod } from "./upload-method.js";
export { toUploadResponse } from "./upload-response.js";
export { uuidV7 } from "./uuid-v7.js";
