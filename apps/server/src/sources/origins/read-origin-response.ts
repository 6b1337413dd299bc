/**
 * Turns an origin's HTTP answer (200 or 304) into an `OriginReadResult`, for the readers whose
 * vendor client hands back a Node response (s3 through minio). The size limit is applied twice:
 * on Content-Length before the body is read, and on the bytes as they stream (an origin may not
 * send a length, or may send more than it said).
 */
import type { IncomingMessage } from "node:http";
import { guardOriginBody } from "./origin-body.js";
import { originError } from "./origin-error.js";
import type { OriginReadRequest, OriginReadResult } from "./origin-reader.js";

export function readOriginResponse(
  response: IncomingMessage,
  request: OriginReadRequest,
  sourceName: string,
): OriginReadResult {
  if (response.statusCode === 304) {
    response.resume();
    return { kind: "not-modified" };
  }
  const header = (name: string) => {
    const value = response.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const lengthHeader = header("content-length");
  const size =
    lengthHeader !== undefined && /^\d{1,15}$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  if (size !== undefined && size > request.maxBytes) {
    response.destroy();
    throw originError("too_large", sourceName, `${size} bytes, limit ${request.maxBytes}`);
  }
  const lastModifiedHeader = header("last-modified");
  const lastModified = lastModifiedHeader ? new Date(lastModifiedHeader) : undefined;
  return {
    kind: "object",
    object: {
      body: guardOriginBody(response, { maxBytes: request.maxBytes, signal: request.signal, sourceName }),
      size,
      contentType: header("content-type"),
      etag: header("etag"),
      lastModified: lastModified && !Number.isNaN(lastModified.getTime()) ? lastModified : undefined,
    },
  };
}
