/** The multipart storage layer's contract; see index.ts for how the routes use it. */
import type { Readable } from "node:stream";
import type { CompletePart, PartPlan } from "./part-plan.js";

export type { CompletePart } from "./part-plan.js";

export interface BeginInput {
  /** Final object key (validated with `assertValidKey`). */
  key: string;
  /** Total bytes, at least 1. */
  size: number;
  /** Bytes per part (all but the last), a multiple of BLOCK_SIZE; use `choosePartSize`. */
  partSize: number;
  /** `ceil(size / partSize)`, at most 10,000. */
  partCount: number;
  contentType?: string;
}

export interface PutPartInput {
  key: string;
  uploadId: string;
  /** 1-based. */
  partNumber: number;
  /** The upload's part size, as given to `begin`; the part starts at `(partNumber - 1) * partSize`. */
  partSize: number;
  body: Readable;
  /** Exact byte count of this part: `partSize`, or the remainder for the last part. */
  expectedSize: number;
  signal?: AbortSignal;
}

export interface StoredPart {
  partNumber: number;
  size: number;
  /** Pass back unchanged to `complete`. fs: `partHash`; s3: the store's ETag, unquoted. */
  etag: string;
  /**
   * The content hash (block-hash.ts, b1 scheme) of the part's bytes, as lowercase hex: derived
   * from `blockDigests`, so equal bytes give equal values. Not `sha256sum` of the part.
   */
  partHash: string;
  /** SHA-256 hex of each BLOCK_SIZE block of the part, in order (see block-hash.ts). */
  blockDigests: string[];
}

export interface CompleteInput {
  key: string;
  uploadId: string;
  /** Every part, numbered 1..n (any order). */
  parts: CompletePart[];
}

export interface UploadRef {
  key: string;
  uploadId: string;
}

export interface PresignPartInput extends UploadRef {
  partNumber: number;
  /** 1 to 604800 (7 days, S3's limit). */
  expiresInSeconds: number;
}

export interface ListedPart {
  number: number;
  size: number;
  etag: string;
}

export interface PendingUpload {
  uploadId: string;
  key: string;
  size: number;
  createdAt: Date;
}

export interface MultipartStore {
  readonly kind: "fs" | "s3";
  /** True when parts can go straight to storage (`presignPart` and `listParts` exist). */
  readonly supportsDirect: boolean;
  /**
   * The store's own part plan for an object of `size` bytes, when it has a better one than
   * `choosePartSize` (5 MiB parts); throws InvalidUploadPlanError like it.
   */
  planParts?(size: number): PartPlan;
  begin(input: BeginInput): Promise<{ uploadId: string }>;
  /**
   * Streams one part into place. Rejects with `SizeMismatchError` when the body is not exactly
   * `expectedSize` bytes. A part number can be uploaded again; the newest successful upload wins.
   * A failed upload of a part number invalidates any earlier upload of that number (fs writes in
   * place), so forget the stored record of that part when `putPart` rejects.
   * On rejection `body` is neither consumed further nor destroyed: the caller answers the
   * request and then drains or closes it.
   */
  putPart(input: PutPartInput): Promise<StoredPart>;
  /** Assembles the parts into `key` (replacing any object there). Returns the object's size. */
  complete(input: CompleteInput): Promise<{ size: number }>;
  /** Discards the upload and its stored parts. Idempotent. */
  abort(input: UploadRef): Promise<void>;
  /** A presigned S3 UploadPart URL (direct mode). */
  presignPart?(input: PresignPartInput): Promise<string>;
  /** Every part the store holds for the upload, all pages, sorted by number (direct mode). */
  listParts?(input: UploadRef): Promise<ListedPart[]>;
  /** Uploads begun but neither completed nor aborted (for sweeping orphans), when the store can tell. */
  listPending?(): AsyncIterable<PendingUpload>;
}
