/**
 * Answers a delivery request with an object in storage: a stored file, or a source's original
 * cached from its origin. One place for the HTTP semantics both need:
 *
 * - ETag (the content hash), Cache-Control (the caller's), Last-Modified, Accept-Ranges;
 * - If-None-Match -> 304 (./etag-match.ts);
 * - one `Range: bytes=` range -> 206, or 416 when unsatisfiable; several ranges are answered with
 *   the whole object, as RFC 9110 allows (./range-header.ts); If-Range honoured;
 * - the body streamed from the storage driver, never buffered.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../errors/index.js";
import { ObjectNotFoundError, type StorageDriver } from "../storage/driver.js";
import { etagMatches } from "./etag-match.js";
import { parseRange } from "./range-header.js";

export interface StoredObjectResponse {
  storageKey: string;
  size: number;
  /** SHA-256 of the bytes, hex: the strong ETag. */
  hash: string;
  mimeType: string;
  updatedAt: Date;
  cacheControl: string;
}

export async function sendStoredObject(
  storage: StorageDriver,
  request: FastifyRequest,
  reply: FastifyReply,
  object: StoredObjectResponse,
): Promise<FastifyReply> {
  const etag = `"${object.hash}"`;
  reply.header("etag", etag);
  reply.header("cache-control", object.cacheControl);
  reply.header("accept-ranges", "bytes");
  reply.header("last-modified", object.updatedAt.toUTCString());

  if (etagMatches(request.headers["if-none-match"], etag)) {
    return reply.status(304).send();
  }

  const size = object.size;
  const ifRangeHeader = request.headers["if-range"];
  const ifRange = Array.isArray(ifRangeHeader) ? ifRangeHeader[0] : ifRangeHeader;
  const rangeHeader = ifRange && ifRange.trim() !== etag ? undefined : request.headers.range;
  const range = parseRange(rangeHeader, size);
  reply.type(object.mimeType || "application/octet-stream");

  if (range.kind === "unsatisfiable") {
    reply.header("content-range", `bytes */${size}`);
    return reply.status(416).type("application/json; charset=utf-8").send({ error: "Range Not Satisfiable" });
  }

  const start = range.kind === "range" ? range.start : 0;
  const end = range.kind === "range" ? range.end : size - 1;
  const length = size === 0 ? 0 : end - start + 1;
  if (range.kind === "range") {
    reply.status(206);
    reply.header("content-range", `bytes ${start}-${end}/${size}`);
  }
  reply.header("content-length", String(length));
  if (request.method === "HEAD" || length === 0) return reply.send();
  try {
    const stream = await storage.get(
      object.storageKey,
      range.kind === "range" ? { range: { start, end } } : {},
    );
    return reply.send(stream);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw notFound("files");
    throw error;
  }
}
