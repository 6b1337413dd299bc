/**
 * S3 storage driver (MinIO, AWS S3, R2, Ceph, any S3-compatible store) on the `minio` client.
 *
 * Proposed environment (the config module wires these to `S3StorageConfig`):
 *   TROVE_STORAGE=s3
 *   TROVE_S3_ENDPOINT         URL of the store as the server reaches it, e.g. http://127.0.0.1:9000
 *                             (scheme gives useSSL, port optional; `parseS3Endpoint` parses it)
 *   TROVE_S3_REGION           default us-east-1 (always set: presigning then needs no request)
 *   TROVE_S3_BUCKET
 *   TROVE_S3_ACCESS_KEY, TROVE_S3_SECRET_KEY
 *   TROVE_S3_PUBLIC_ENDPOINT  optional URL clients use to reach the store (presigned part URLs)
 *   TROVE_S3_PATH_STYLE       optional, default true (false for virtual-hosted AWS buckets)
 *
 * `put` streams: the body is counted as it arrives and cut into parts of `partSize`
 * (8 MiB by default, larger when `expectedSize`/`maxBytes` needs more than 10,000 parts). A body
 * that fits in one part is sent with one PutObject; a longer one becomes a multipart upload with
 * up to `putConcurrency` parts in flight, so memory stays within (putConcurrency + 1) x partSize.
 * A body that breaks `expectedSize`/`maxBytes` aborts the multipart upload: nothing is stored,
 * and an existing object under the key is untouched (S3 replaces objects atomically).
 */
import { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import {
  assertValidKey,
  type ByteRange,
  ObjectNotFoundError,
  type ObjectStat,
  ObjectTooLargeError,
  type OpenedObject,
  type PutOptions,
  type PutResult,
  SizeMismatchError,
  type StorageDriver,
} from "./driver.js";
import { choosePartSize, MAX_OBJECT_SIZE, MAX_PARTS, MIB } from "./multipart/part-plan.js";
import {
  isNotFound,
  S3Access,
  type S3AccessOptions,
  type S3Endpoint,
  s3ErrorCode,
} from "./multipart/s3-client.js";
import { S3MultipartStore } from "./multipart/s3-multipart.js";

/** The store's address and credentials as S3Access takes them, and how this driver uses it. */
export interface S3StorageConfig extends Omit<S3AccessOptions, "publicEndpoint"> {
  /** URL (or host) clients use to reach the store, for presigned URLs. */
  publicEndpoint?: string;
  /** Part size for `put` bodies longer than one part. Default 8 MiB; a whole number of MiB, >= 5 MiB. */
  putPartSize?: number;
  /** Parts of one `put` in flight at once. Default 4. */
  putConcurrency?: number;
  /** Floor for multipart part sizes (S3: 5 MiB). Lower only against test stores. */
  minPartSize?: number;
  /** Keys per ListObjectsV2 page (1 to 1000). Default 1000. */
  listPageSize?: number;
}

const DEFAULT_PUT_PART_SIZE = 8 * MIB;
const PART_ATTEMPTS = 3;

/** `http://host:9000` (or a bare `host:port`, taken as https) -> endpoint fields for the client. */
export function parseS3Endpoint(value: string): S3Endpoint {
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`Unsupported S3 endpoint: ${value}`);
  if (url.pathname !== "/" && url.pathname !== "")
    throw new TypeError(`S3 endpoint must not have a path: ${value}`);
  const endpoint: S3Endpoint = {
    endPoint: url.hostname.replace(/^\[|\]$/g, ""),
    useSSL: url.protocol === "https:",
  };
  if (url.port !== "") endpoint.port = Number(url.port);
  return endpoint;
}

const RETRYABLE = new Set([
  "InternalError",
  "SlowDown",
  "ServiceUnavailable",
  "RequestTimeout",
  "ECONNRESET",
  "EPIPE",
]);

/** Transient store or connection errors; only replayable (buffered) bodies are retried. */
function isRetryable(error: unknown): boolean {
  const code = s3ErrorCode(error);
  return code !== undefined && RETRYABLE.has(code);
}

async function withRetry<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (n >= PART_ATTEMPTS || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** n * (0.5 + Math.random())));
    }
  }
}

export class S3StorageDriver implements StorageDriver {
  readonly kind = "s3";
  readonly bucket: string;
  readonly s3: S3Access;
  /** Multipart uploads on this store, direct mode included (see multipart/index.ts). */
  readonly multipart: S3MultipartStore;
  private readonly putPartSize: number;
  private readonly putConcurrency: number;
  private readonly listPageSize: number;

  constructor(config: S3StorageConfig) {
    this.bucket = config.bucket;
    this.s3 = new S3Access({
      endPoint: config.endPoint,
      ...(config.port !== undefined ? { port: config.port } : {}),
      useSSL: config.useSSL,
      region: config.region,
      bucket: config.bucket,
      accessKey: config.accessKey,
      secretKey: config.secretKey,
      ...(config.sessionToken !== undefined ? { sessionToken: config.sessionToken } : {}),
      pathStyle: config.pathStyle ?? true,
      ...(config.publicEndpoint ? { publicEndpoint: parseS3Endpoint(config.publicEndpoint) } : {}),
    });
    this.multipart = new S3MultipartStore(
      this.s3,
      config.minPartSize !== undefined ? { minPartSize: config.minPartSize } : {},
    );
    this.putPartSize = config.putPartSize ?? DEFAULT_PUT_PART_SIZE;
    if (this.putPartSize % MIB !== 0 || this.putPartSize < 5 * MIB) {
      throw new RangeError("putPartSize must be a whole number of MiB, at least 5 MiB");
    }
    this.putConcurrency = Math.max(1, config.putConcurrency ?? 4);
    this.listPageSize = Math.min(1000, Math.max(1, config.listPageSize ?? 1000));
  }

  /** Checks that the bucket is reachable; creates it when `create` is set and it is missing. */
  async ensureBucket({ create = false } = {}): Promise<void> {
    if (await this.s3.client.bucketExists(this.bucket)) return;
    if (!create) throw new Error(`S3 bucket "${this.bucket}" does not exist`);
    await this.s3.client.makeBucket(this.bucket, this.s3.region);
  }

  /** Closes idle connections (tests, shutdown). */
  close(): void {
    this.s3.close();
  }

  async put(key: string, source: Readable | Buffer, options: PutOptions = {}): Promise<PutResult> {
    assertValidKey(key);
    // Bytes in memory take the same path: the body is cut into parts (or sent whole) below.
    const body = Buffer.isBuffer(source) ? Readable.from([source]) : source;
    const { expectedSize, maxBytes, contentType, signal } = options;
    signal?.throwIfAborted();
    const limit = Math.min(expectedSize ?? Number.POSITIVE_INFINITY, maxBytes ?? Number.POSITIVE_INFINITY);
    let partSize = this.putPartSize;
    if (Number.isFinite(limit) && limit > 0) {
      partSize = Math.max(partSize, choosePartSize(Math.min(limit, MAX_OBJECT_SIZE)).partSize);
    }
    const headers: Record<string, string> = contentType ? { "content-type": contentType } : {};
    let size = 0;
    // The part being filled; no larger than the body can be.
    let buffer = Buffer.allocUnsafe(Number.isFinite(limit) ? Math.min(partSize, limit) : partSize);
    let filled = 0;

    let uploadId: string | undefined;
    let nextPart = 1;
    const etags: Array<{ number: number; etag: string }> = [];
    const inFlight = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;

    const send = async (part: Buffer): Promise<void> => {
      if (uploadId === undefined) uploadId = await this.s3.initiate(key, contentType);
      while (inFlight.size >= this.putConcurrency) await Promise.race(inFlight);
      if (failure) throw failure.error;
      const number = nextPart++;
      if (number > MAX_PARTS) throw new ObjectTooLargeError(MAX_PARTS * partSize);
      const id = uploadId;
      const task = withRetry(() =>
        this.s3.putBody(key, part, part.length, { uploadId: id, partNumber: number }),
      )
        .then((etag) => {
          etags.push({ number, etag });
        })
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
    };

    const onAbort = () =>
      body.destroy(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      for await (const data of body) {
        const chunk: Buffer = typeof data === "string" ? Buffer.from(data) : data;
        size += chunk.length;
        if (maxBytes !== undefined && size > maxBytes) throw new ObjectTooLargeError(maxBytes);
        if (expectedSize !== undefined && size > expectedSize)
          throw new SizeMismatchError(expectedSize, size);
        let offset = 0;
        while (offset < chunk.length) {
          if (filled === buffer.length) {
            // Full, and more bytes follow: this is not the last part.
            await send(buffer);
            buffer = Buffer.allocUnsafe(partSize);
            filled = 0;
          }
          const copied = chunk.copy(buffer, filled, offset);
          filled += copied;
          offset += copied;
        }
      }
      signal?.throwIfAborted();
      if (expectedSize !== undefined && size !== expectedSize)
        throw new SizeMismatchError(expectedSize, size);
      const last = buffer.subarray(0, filled);
      if (uploadId === undefined) {
        await withRetry(() => this.s3.putBody(key, last, last.length, undefined, headers));
      } else {
        await send(last);
        while (inFlight.size > 0) await Promise.race(inFlight);
        if (failure) throw failure.error;
        await this.s3.completeUpload(
          key,
          uploadId,
          etags.sort((a, b) => a.number - b.number),
        );
      }
    } catch (error) {
      await Promise.allSettled([...inFlight]);
      if (uploadId !== undefined) await this.s3.abortUpload(key, uploadId).catch(() => undefined);
      body.destroy();
      throw error;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    return { key, size };
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<Readable> {
    assertValidKey(key);
    const { range } = options;
    if (
      range &&
      (!Number.isSafeInteger(range.start) ||
        !Number.isSafeInteger(range.end) ||
        range.start < 0 ||
        range.end < range.start)
    ) {
      throw new RangeError(`Invalid byte range ${range.start}-${range.end}`);
    }
    try {
      if (range) {
        return await this.s3.client.getPartialObject(
          this.bucket,
          key,
          range.start,
          range.end - range.start + 1,
        );
      }
      return await this.s3.client.getObject(this.bucket, key);
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  /**
   * One GET: the size is the response's Content-Length (minio hands back the HTTP response as the
   * stream). Where it is missing (a proxy that re-chunks), the object is asked for its size.
   */
  async open(key: string): Promise<OpenedObject | null> {
    let body: Readable;
    try {
      body = await this.get(key);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) return null;
      throw error;
    }
    const length = body instanceof IncomingMessage ? Number(body.headers["content-length"]) : Number.NaN;
    if (Number.isSafeInteger(length) && length >= 0) return { size: length, body };
    const info = await this.stat(key).catch((error: unknown) => {
      body.destroy();
      throw error;
    });
    if (!info) {
      body.destroy();
      return null;
    }
    return { size: info.size, body };
  }

  async stat(key: string): Promise<ObjectStat | null> {
    assertValidKey(key);
    try {
      const info = await this.s3.client.statObject(this.bucket, key);
      return { key, size: info.size, modifiedAt: info.lastModified };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.s3.client.removeObject(this.bucket, key);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<ObjectStat> {
    if (prefix !== "") assertValidKey(prefix, { allowPrefix: true });
    let token = "";
    do {
      const page = await this.s3.client.listObjectsV2Query(
        this.bucket,
        prefix,
        token,
        "",
        this.listPageSize,
        "",
      );
      for (const item of page.objects) {
        if (item.name === undefined) continue;
        yield { key: item.name, size: item.size, modifiedAt: item.lastModified };
      }
      token = page.isTruncated ? page.nextContinuationToken : "";
    } while (token !== "");
  }
}
