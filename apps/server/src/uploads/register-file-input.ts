/**
 * What `registerFile` is asked (RegisterFileInput) and what it answers (RegisteredFile); the
 * contract and its decisions are in ./index.ts.
 */
import type { EmbeddedMetadataMode, UploadPolicy, UploadResponse } from "@trove/schema";
import type { File, Folder, Prisma } from "../generated/prisma/client.js";
import type { UploadCredential } from "./upload-credential.js";
import type { UploadMethod } from "./upload-method.js";

export interface RegisterFileInput {
  workspaceId: string;
  /** For URLs in the response. */
  workspaceNo: string;
  /** Where the uploaded bytes are now (a temporary or the final key). */
  storageKey: string;
  /** Bytes at `storageKey`. */
  size: number;
  /**
   * Content hash of those bytes, the b1 block-tree scheme (src/content-hash/block-hash.ts),
   * or a function that computes it: called only if the file keeps these bytes (a store-time
   * transform stores, and hashes, its output instead).
   */
  hash: string | (() => string);
  /**
   * The id for the row. Give the one `storageKey` was built with (`objectKey(ws, fileId, name)`),
   * so the object sits under its file's id; default a new UUIDv7.
   */
  fileId?: string;
  /** The first SNIFF_HEAD_BYTES of the content, if the caller kept them (saves one ranged read). */
  head?: Uint8Array;
  /**
   * The whole content, if the caller still holds it (small direct uploads): an image is then
   * read from memory instead of from storage. Called at most once.
   */
  bytes?: (() => Buffer) | undefined;
  /**
   * False when nothing was written at `storageKey` yet and `bytes` holds the content (a small or
   * transformed direct upload; `storageKey` must then be a new key): the bytes are stored there
   * only if the file keeps them as they are; a transformed file stores just its output. Default true.
   */
  sourceStored?: boolean;
  /** The caller's file name; see ./stored-name.ts for what is stored. */
  fileName: string;
  /** Folder path, created as needed ("" or absent: the root). */
  folder?: string | undefined;
  tags?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
  customId?: string | null | undefined;
  /** Appends a random suffix to the stored name (`cat-k3x9q2ab.jpg`). */
  randomPrefix?: boolean | undefined;
  /** Served only through signed URLs (a policy with `private: true` forces it). */
  isPrivate?: boolean | undefined;
  /** Store-time transformation (raster images only). */
  transform?: string | undefined;
  /**
   * Seconds the file lives (`expires_in`): a temporary file, deleted then. The policy's
   * `file_expires_in` applies when absent and bounds it when given (./file-expiry.ts).
   */
  expiresIn?: number | undefined;
  /**
   * The upload's own `embedded_metadata`, and the workspace's setting (`request.auth`): with the
   * credential and the policy they choose what ./strip-upload-metadata.ts removes
   * (./embedded-metadata-rule.ts). Both absent: the default rule.
   */
  embeddedMetadata?: EmbeddedMetadataMode | undefined;
  workspaceEmbeddedMetadata?: EmbeddedMetadataMode | null | undefined;
  uploadSource: UploadMethod;
  originalUrl?: string | null | undefined;
  /** API key id of the uploader, or null. */
  createdBy: string | null;
  /**
   * `request.auth.keyType`: "public" for a public key or an upload token, which is held to strict
   * mode at store time and always told `is_duplicate: false` (./upload-credential.ts). Default
   * "private".
   */
  credential?: UploadCredential | undefined;
  /** Enqueue a signed `file.uploaded` webhook in the same transaction as the row. */
  webhookUrl?: string | undefined;
  /**
   * The credential's upload policy (src/uploads/upload-policy.ts), enforced here so that direct,
   * remote and multipart uploads share it: folder, size, sniffed type, fixed fields.
   */
  policy?: UploadPolicy | undefined;
  /** The upload token to count the file against, in the row's transaction (src/keys/upload-tokens.ts). */
  uploadTokenId?: string | null | undefined;
  /** Delete the object at `storageKey` when registration fails (default true). */
  deleteSourceOnError?: boolean;
  /**
   * More database work that must commit or roll back with the row, run in its transaction right
   * after the insert (multipart complete marks its session completed here). Only `tx` inside.
   * Throwing rolls the registration back like any other failure.
   */
  inTransaction?: (tx: Prisma.TransactionClient, file: File) => Promise<void>;
}

export interface RegisteredFile {
  file: File;
  folder: Folder | null;
  isDuplicate: boolean;
  /** The flat upload response (endpoints 1 and 2). */
  response: UploadResponse;
  webhook: { jobId: string; webhookId: string } | null;
}
