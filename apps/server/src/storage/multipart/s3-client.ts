/**
 * The S3 operations Trove needs, on the `minio` client (v8), shared by the s3 driver and the s3
 * multipart store.
 *
 * Three clients, one configuration:
 * - `client`: metadata calls (stat, list, delete, create/complete multipart, GET), with minio's
 *   retries and, over plain HTTP, signed payloads.
 * - `streamClient`: request bodies (PutObject, UploadPart), retries off (a consumed stream cannot
 *   be replayed) and `UNSIGNED-PAYLOAD` (minio would otherwise need the body's SHA-256 before
 *   sending it, that is, the whole body in memory). S3, MinIO and s3rver accept unsigned
 *   payloads over HTTP and HTTPS.
 * - `presignClient`: configured with the public endpoint when clients reach the store under
 *   another host name (presigned URLs sign the Host header). It never sends a request because
 *   the region is always configured.
 *
 * minio's `putObject` is not used for streams: for large bodies it first calls
 * ListMultipartUploads (`findUploadId`), which s3rver lacks, and it buffers whole parts anyway.
 */
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { Client, type ClientOptions } from "minio";
import { UploadNotFoundError } from "./errors.js";
import type { ListedPart } from "./types.js";

export interface S3Endpoint {
  /** Host name or IP, without scheme or port. */
  endPoint: string;
  port?: number;
  useSSL: boolean;
}

export interface S3AccessOptions extends S3Endpoint {
  region: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  sessionToken?: string;
  /** Path-style URLs (`host/bucket/key`); MinIO and most self-hosted stores need it. Default true. */
  pathStyle?: boolean;
  /** Host used in presigned URLs, when it differs from the one the server uses. */
  publicEndpoint?: S3Endpoint;
}

/** minio's Client, with ListParts (protected there) exposed. */
export class TroveS3Client extends Client {
  /** Every part of a multipart upload, following ListParts pages. */
  async listUploadParts(bucket: string, key: string, uploadId: string): Promise<ListedPart[]> {
    const parts = await this.listParts(bucket, key, uploadId);
    return parts.map((part) => ({ number: part.part, size: part.size, etag: part.etag }));
  }
}

/** The S3 error code (`NoSuchKey`, `NoSuchUpload`, ...) of a minio error, if any. */
export function s3ErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

export function isNotFound(error: unknown): boolean {
  const code = s3ErrorCode(error);
  return code === "NoSuchKey" || code === "NotFound" || code === "NoSuchObject";
}

/** RFC 3986 escaping, as SigV4 canonical query strings require. */
function uriEscape(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function sanitizeEtag(etag: string): string {
  return etag.replace(/^"|"$/g, "").replace(/^&quot;|&quot;$/g, "");
}

export class S3Access {
  readonly client: TroveS3Client;
  readonly streamClient: TroveS3Client;
  readonly presignClient: TroveS3Client;
  readonly bucket: string;
  readonly region: string;
  private readonly agent: HttpAgent;

  constructor(options: S3AccessOptions) {
    this.bucket = options.bucket;
    this.region = options.region;
    this.agent = options.useSSL
      ? new HttpsAgent({ keepAlive: true, maxSockets: 64 })
      : new HttpAgent({ keepAlive: true, maxSockets: 64 });
    const base = (endpoint: S3Endpoint): ClientOptions => {
      const clientOptions: ClientOptions = {
        endPoint: endpoint.endPoint,
        useSSL: endpoint.useSSL,
        region: options.region,
        accessKey: options.accessKey,
        secretKey: options.secretKey,
        pathStyle: options.pathStyle ?? true,
      };
      if (endpoint.port !== undefined) clientOptions.port = endpoint.port;
      if (options.sessionToken !== undefined) clientOptions.sessionToken = options.sessionToken;
      return clientOptions;
    };
    this.client = new TroveS3Client({ ...base(options), transportAgent: this.agent });
    this.streamClient = new TroveS3Client({
      ...base(options),
      transportAgent: this.agent,
      retryOptions: { disableRetry: true },
    });
    this.streamClient.enableSHA256 = false;
    this.presignClient = options.publicEndpoint
      ? new TroveS3Client(base(options.publicEndpoint))
      : this.client;
  }

  /** CreateMultipartUpload; returns the upload id. */
  async initiate(key: string, contentType?: string): Promise<string> {
    const headers: Record<string, string> = {};
    if (contentType) headers["Content-Type"] = contentType;
    return this.client.initiateNewMultipartUpload(this.bucket, key, headers);
  }

  /**
   * PutObject (no `upload`) or UploadPart of exactly `length` bytes from a buffer or a stream;
   * returns the ETag, unquoted. A stream that errors or ends early aborts the request.
   */
  async putBody(
    key: string,
    body: Buffer | Readable,
    length: number,
    upload?: { uploadId: string; partNumber: number },
    headers: Record<string, string> = {},
  ): Promise<string> {
    const query = upload ? `partNumber=${upload.partNumber}&uploadId=${uriEscape(upload.uploadId)}` : "";
    try {
      const response = await this.streamClient.makeRequestStreamAsync(
        {
          method: "PUT",
          bucketName: this.bucket,
          objectName: key,
          ...(query ? { query } : {}),
          headers: { ...headers, "content-length": String(length) },
        },
        body,
        "",
        [200],
        this.region,
      );
      const etag = response.headers.etag;
      response.resume();
      await finished(response);
      if (!etag) throw new Error("S3 returned no ETag");
      return sanitizeEtag(etag);
    } catch (error) {
      if (upload && s3ErrorCode(error) === "NoSuchUpload") throw new UploadNotFoundError(upload.uploadId);
      throw error;
    }
  }

  /** CompleteMultipartUpload with parts sorted by number. */
  async completeUpload(
    key: string,
    uploadId: string,
    parts: Array<{ number: number; etag: string }>,
  ): Promise<void> {
    try {
      await this.client.completeMultipartUpload(
        this.bucket,
        key,
        uploadId,
        parts.map((part) => ({ part: part.number, etag: part.etag })),
      );
    } catch (error) {
      if (s3ErrorCode(error) === "NoSuchUpload") throw new UploadNotFoundError(uploadId);
      throw error;
    }
  }

  /**
   * AbortMultipartUpload. An upload that is already gone is fine, and so is a store without the
   * operation (stock s3rver answers 405); expire such leftovers with a bucket lifecycle rule.
   */
  async abortUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.makeRequestAsyncOmit(
        {
          method: "DELETE",
          bucketName: this.bucket,
          objectName: key,
          query: `uploadId=${uriEscape(uploadId)}`,
        },
        "",
        [204],
        this.region,
      );
    } catch (error) {
      const code = s3ErrorCode(error);
      if (code === "NoSuchUpload" || code === "MethodNotAllowed" || code === "NotImplemented") return;
      throw error;
    }
  }

  async listParts(key: string, uploadId: string): Promise<ListedPart[]> {
    try {
      return await this.client.listUploadParts(this.bucket, key, uploadId);
    } catch (error) {
      if (s3ErrorCode(error) === "NoSuchUpload") throw new UploadNotFoundError(uploadId);
      throw error;
    }
  }

  /** A presigned UploadPart URL on the public endpoint. */
  async presignPart(
    key: string,
    uploadId: string,
    partNumber: number,
    expiresInSeconds: number,
  ): Promise<string> {
    return this.presignClient.presignedUrl("PUT", this.bucket, key, expiresInSeconds, {
      partNumber: String(partNumber),
      uploadId,
    });
  }

  /** Closes idle keep-alive sockets. */
  close(): void {
    this.agent.destroy();
  }
}
