/**
 * # Multipart uploads (spec endpoints 3, 4, 5; Trove's 22)
 *
 *   POST   /api/v1/multipart/start                        any key   -> start-session.ts
 *   PUT    /api/v1/multipart/parts/:sessionId/:partNumber  no key    -> receive-part.ts (gateway mode)
 *   POST   /api/v1/multipart/complete                     any key   -> complete-session.ts
 *   DELETE /api/v1/multipart/:sessionId                   any key   -> abandon-session.ts
 *   sweep, every instance, on a timer                                -> sweep-sessions.ts, sweep-timer.ts
 *
 * Routes: src/routes/multipart.ts (start, complete) and src/routes/part-gateway.ts (the PUT).
 * Storage: src/storage/multipart (fs: one preallocated file, parts written at their offsets;
 * s3: S3 multipart upload). Bytes are streamed, never buffered, and hashed as they pass.
 *
 * ## Session lifecycle (table `multipart_sessions`)
 *
 *   pending --complete--> completing --file registered--> completed
 *      |                     | missing parts, transient failure -> pending
 *      |                     | content refused by registration (400) -> aborted (object deleted)
 *      +--DELETE--> aborted (storage upload aborted, object and part rows deleted)
 *      +--expires_at passed, swept--> expired (storage upload aborted, part rows deleted)
 *
 * ## Whose session (issue #30, session-credential.ts)
 *
 * A session belongs to the credential that started it (the same key, or the same upload token).
 * Only that credential completes it, first time or again; another (the public key after a
 * token started it, another private key) gets 404 "Session not found". A repeated complete
 * answers until `expires_at`, then 404. The part gateway refuses parts (400) once that
 * credential is revoked or expired (a token's minting key too) or its workspace disabled.
 * A token's session ends no later than the token, and takes one of its `max_files` at start:
 * kept by the file, given back when the session is abandoned, refused or swept (end-session.ts).
 *
 * The session id is also the id of the file it becomes (`<workspaceId>/<sessionId>/<name>` is
 * the object key), so a repeated complete finds the same file.
 *
 * ## Decisions
 *
 * - Part size: the store's `planParts(size)` if it has one, else `choosePartSize(size)`: 5 MiB,
 *   grown in whole MiB to stay within 10,000 parts. The fs store plans about 32 parts of 5 to
 *   32 MiB (a part costs it one request, not storage work); S3 keeps 5 MiB.
 * - Largest upload: TROVE_MAX_MULTIPART_BYTES (10 GiB by default). A larger `size` is a 400
 *   `{ success: false, error }` (not 413: the spec's multipart failures are 400 in that shape).
 * - TTL: `ttl_seconds` (1 s to 7 days), default TROVE_MULTIPART_TTL_SECONDS (1 hour). It bounds
 *   both the part URLs and the session: `expires_at` (Unix seconds) is the same for both, and a
 *   complete after it is 400 "Session expired".
 * - Modes: `gateway` (default, every driver): part URLs point at Trove's part gateway, signed
 *   with HMAC-SHA256 (part-url.ts) over `session_id:part_number:expires`, no API key in them.
 *   `direct` (TROVE_MULTIPART_MODE=direct, s3 only): presigned S3 UploadPart URLs; complete
 *   lists the parts (every page), checks numbering and sizes, and reads the object once to hash it.
 * - Gateway failures are all 400 `{ success: false, error }` with distinct messages ("Invalid
 *   signature", "Part URL expired", "Session expired", "Content-Type must be
 *   application/octet-stream", "Part 3 must be 5242880 bytes, received 17", ...). A body of the
 *   wrong length (Content-Length checked up front, the streamed count enforced) records nothing.
 *   Uploading a part number again replaces it. Success: 200, `ETag` header (quoted) and
 *   `{ success: true, part_number, size, etag }`. CORS (browser uploads) comes from the app-wide
 *   plugin (src/plugins/cors.ts), which exposes `ETag`.
 * - The gateway is under /api/, so the global rate limit applies, keyed by client IP (no key).
 * - Complete with a missing part: 400 "Missing parts: 3, 4" (the first 20 listed). A complete
 *   racing another waits for it (up to 30 s, then 409 `{ success: false, error }`) and returns
 *   the same file. Content hash: the parts' block digests combined (gateway), equal to the hash
 *   of a direct upload of the same bytes, without reading the file again.
 * - Another workspace's session, another credential's, or an unknown id: 404 "Session not found".
 * - DELETE answers 200 `{ success: true }` (the multipart group's success envelope; the spec
 *   gives no status for Trove's own endpoints), again for a session already ended; 409 for a
 *   completed session or one being completed. A private key of the workspace may abandon any
 *   of its sessions.
 * - A complete's `url` of a private file is signed for a private key only (complete-result.ts).
 */

export { abandonSession } from "./abandon-session.js";
export { toCompleteResult } from "./complete-result.js";
export { COMPLETING_STALE_MS, type CompleteOptions, completeSession } from "./complete-session.js";
export {
  DEFAULT_MULTIPART_CONFIG,
  type MultipartConfig,
  type MultipartMode,
  resolveMultipartConfig,
} from "./multipart-config.js";
export { createMultipartDeps, type MultipartDeps, type MultipartDepsInput } from "./multipart-deps.js";
export { PartUrlSigner } from "./part-url.js";
export { type ReceivePartInput, receivePart } from "./receive-part.js";
export { startSession } from "./start-session.js";
export { type SweepOptions, type SweepResult, sweepExpiredSessions } from "./sweep-sessions.js";
export { type SweepTimer, startSweepTimer } from "./sweep-timer.js";
