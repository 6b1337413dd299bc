/**
 * Turns an origin's HTTP answer (200 or 304) into an `OriginReadResult`, for the readers whose
 * vendor client hands back a Node response (s3 through minio). The size limit is applied twice:
 * on Content-Length before the body is read, and on the bytes as they stream (an origin may not
 * send a length, or may send more than it said).
 */
import type { IncomingMessage } from "node:http";
import { Transform } from "node:stream";
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
      body: capBytes(response, request, sourceName),
      size,
      contentType: header("content-type"),
      etag: header("etag"),
      lastModified: lastModified && !Number.isNaN(lastModified.getTime()) ? lastModified : undefined,
    },
  };
}

/** `response` as a stream that fails with `too_large` past `maxBytes` and `timeout` on abort. */
export function capBytes(
  response: NodeJS.ReadableStream & { destroy(error?: Error): unknown },
  request: OriginReadRequest,
  sourceName: string,
): Transform {
  let seen = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > request.maxBytes) {
        callback(originError("too_large", sourceName, `more than ${request.maxBytes} bytes`));
        return;
      }
      callback(null, chunk);
    },
  });
  const onAbort = () =>
    capped.destroy(originError("timeout", sourceName, "the body did not arrive before the deadline"));
  request.signal.addEventListener("abort", onAbort, { once: true });
  capped.once("close", () => {
    request.signal.removeEventListener("abort", onAbort);
    response.destroy();
  });
  response.once("error", (error) =>
    capped.destroy(
      request.signal.aborted
        ? originError("timeout", sourceName, "the body did not arrive before the deadline")
        : originError("unavailable", sourceName, "the connection failed mid-body", { cause: error }),
    ),
  );
  response.pipe(capped);
  return capped;
}
