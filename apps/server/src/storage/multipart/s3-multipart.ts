/**
 * Multipart uploads on S3-compatible storage: CreateMultipartUpload, UploadPart (streamed through
 * Trove in gateway mode, or presigned for direct mode), ListParts, CompleteMultipartUpload
 * (assembled inside the store) and AbortMultipartUpload. Nothing is kept in Trove's memory
 * between calls; the routes keep the session in the database.
 */
import { finished } from "node:stream/promises";
import { assertValidKey } from "../driver.js";
import { InvalidPartError, UploadNotFoundError } from "./errors.js";
import { feed } from "./feed.js";
import { PartMeter } from "./part-meter.js";
import { assertCompleteParts, assertValidPartRequest, assertValidPlan, MIN_PART_SIZE } from "./part-plan.js";
import { type S3Access, s3ErrorCode } from "./s3-client.js";
import type {
  BeginInput,
  CompleteInput,
  ListedPart,
  MultipartStore,
  PresignPartInput,
  PutPartInput,
  StoredPart,
  UploadRef,
} from "./types.js";

const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;

function assertUploadId(uploadId: string): void {
  // Opaque to Trove; checked only for shape (printable ASCII), since it travels in URLs and signatures.
  if (typeof uploadId !== "string" || !/^[!-~]{1,1024}$/.test(uploadId)) {
    throw new UploadNotFoundError(String(uploadId));
  }
}

export class S3MultipartStore implements MultipartStore {
  readonly kind = "s3";
  readonly supportsDirect = true;
  private readonly minPartSize: number;

  /** `minPartSize`: floor for non-final parts (S3: 5 MiB; lower only against test stores). */
  constructor(
    readonly s3: S3Access,
    options: { minPartSize?: number } = {},
  ) {
    this.minPartSize = options.minPartSize ?? MIN_PART_SIZE;
  }

  async begin(input: BeginInput): Promise<{ uploadId: string }> {
    const { key, size, partSize, partCount, contentType } = input;
    assertValidKey(key);
    assertValidPlan({ size, partSize, partCount }, { minPartSize: this.minPartSize });
    return { uploadId: await this.s3.initiate(key, contentType) };
  }

  async putPart(input: PutPartInput): Promise<StoredPart> {
    const { key, uploadId, partNumber, partSize, body, expectedSize, signal } = input;
    assertValidKey(key);
    assertUploadId(uploadId);
    assertValidPartRequest({ partNumber, partSize, expectedSize });
    signal?.throwIfAborted();

    // The meter holds back the final chunk until the body has ended, so the store only ever
    // receives a complete request (Content-Length = expectedSize) for a body of exactly that size.
    const meter = new PartMeter(expectedSize, { holdLast: true });
    // Settles once the meter has seen the whole body and checked its size (or has failed).
    const metered = finished(meter, { readable: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const detach = feed(body, meter);
    const onAbort = () => meter.destroy(signal?.reason ?? new Error("aborted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    let etag: string;
    try {
      etag = await this.s3.putBody(key, meter, expectedSize, { uploadId, partNumber });
      // A zero-byte part can be answered before the body ended: wait for it, then trust the meter.
      const feedError = await metered;
      if (meter.failure || feedError) throw meter.failure ?? feedError;
    } catch (error) {
      detach();
      meter.destroy();
      throw meter.failure ?? (signal?.aborted ? signal.reason : error);
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    return { partNumber, ...meter.result(), etag };
  }

  async complete(input: CompleteInput): Promise<{ size: number }> {
    const { key, uploadId, parts } = input;
    assertValidKey(key);
    assertUploadId(uploadId);
    const { sorted, size } = assertCompleteParts(parts);
    try {
      await this.s3.completeUpload(key, uploadId, sorted);
    } catch (error) {
      const code = s3ErrorCode(error);
      if (code === "InvalidPart" || code === "InvalidPartOrder" || code === "EntityTooSmall") {
        throw new InvalidPartError(`The store rejected the part list (${code})`);
      }
      throw error;
    }
    const stat = await this.s3.client.statObject(this.s3.bucket, key);
    if (stat.size !== size) {
      // The listed sizes were not what was stored: never leave an object that disagrees with them.
      await this.s3.client.removeObject(this.s3.bucket, key);
      throw new InvalidPartError(`Assembled ${stat.size} bytes, the parts list ${size}`);
    }
    return { size };
  }

  async abort({ key, uploadId }: UploadRef): Promise<void> {
    assertValidKey(key);
    assertUploadId(uploadId);
    await this.s3.abortUpload(key, uploadId);
  }

  async presignPart({ key, uploadId, partNumber, expiresInSeconds }: PresignPartInput): Promise<string> {
    assertValidKey(key);
    assertUploadId(uploadId);
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
      throw new InvalidPartError("Part number must be an integer from 1 to 10000", partNumber);
    }
    if (
      !Number.isInteger(expiresInSeconds) ||
      expiresInSeconds < 1 ||
      expiresInSeconds > MAX_PRESIGN_SECONDS
    ) {
      throw new RangeError(`expiresInSeconds must be from 1 to ${MAX_PRESIGN_SECONDS}`);
    }
    return this.s3.presignPart(key, uploadId, partNumber, expiresInSeconds);
  }

  async listParts({ key, uploadId }: UploadRef): Promise<ListedPart[]> {
    assertValidKey(key);
    assertUploadId(uploadId);
    const parts = await this.s3.listParts(key, uploadId);
    return parts.sort((a, b) => a.number - b.number);
  }
}
