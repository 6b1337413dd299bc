/**
 * Origins: the customer's own storage (an S3 bucket, an Azure container, a Google Cloud Storage
 * bucket, a web server) that a source names and the delivery host serves and transforms from.
 * "Source" is the API's word for the configured row; "origin" is what a reader reads from.
 *
 * A reader is read-only by construction: its one method fetches one object. Trove never writes,
 * lists or deletes in an origin.
 *
 * Every reader:
 * - sends its connections through the SSRF guard (src/network), so an endpoint, a base URL or a
 *   token URL that resolves to a private address is refused unless the operator trusts the range;
 * - throws only `OriginError` (./origin-error.ts) for anything the origin or the network did;
 * - never puts a credential in an error message, a log line or an error's `detail`.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import type { TrustedRanges } from "../../network/trusted-ranges.js";

/** What the cached copy of an object was validated with, for a conditional read. */
export interface OriginValidators {
  /** The origin's entity tag, exactly as the origin gave it (quotes included when it sent them). */
  etag?: string;
  lastModified?: Date;
}

export interface OriginObject {
  /** The object's bytes, streamed; the caller consumes or destroys it. */
  body: Readable;
  /** Bytes, when the origin says before the body (Content-Length, object metadata). */
  size: number | undefined;
  contentType: string | undefined;
  etag: string | undefined;
  lastModified: Date | undefined;
}

export type OriginReadResult =
  | { kind: "object"; object: OriginObject }
  /** The origin confirmed that the cached copy (`validators`) is still current. */
  | { kind: "not-modified" };

export interface OriginReadRequest {
  /** The object's path inside the origin, decoded (`products/shoe.jpg`); never empty, no `.`/`..`. */
  path: string;
  /** Validators of a cached copy; a reader that can ask conditionally does. */
  validators?: OriginValidators;
  /** Largest object accepted: larger fails with `too_large`, before the body when the size is known. */
  maxBytes: number;
  /** Aborts the read (the delivery deadline); the reader turns it into a `timeout` OriginError. */
  signal: AbortSignal;
  /** The incoming delivery request's headers (only `image_source` uses them). */
  requestHeaders?: IncomingHttpHeaders;
}

export interface OriginReader {
  read(request: OriginReadRequest): Promise<OriginReadResult>;
  /**
   * For a reader whose answer depends on the request beyond the path (image_source's canonical
   * host): the part of the cache key that request decides. Absent: "" for every request.
   */
  scope?(requestHeaders: IncomingHttpHeaders): string;
  /** Releases what the reader keeps between reads (connections, a cached access token). */
  close?(): Promise<void>;
}

/** What every reader is built with besides its source's configuration. */
export interface OriginContext {
  /** The source's name, for error messages. */
  sourceName: string;
  /** Private ranges the operator allows (TROVE_TRUSTED_RANGES). */
  trustedRanges: TrustedRanges;
}
