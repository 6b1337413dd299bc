/**
 * Errors Node's HTTP parser raises before Fastify sees a request: a request line plus headers
 * over the size limit (431), a request that took too long to arrive (408), malformed HTTP (400).
 * Fastify's default answers all of them with its own `{ error, message, statusCode }` whatever
 * the path; here they get the envelope of the path's group, like every other error, when the
 * request line was read far enough to name it (a 20 KB signature in a part URL is the usual
 * 431, and the multipart group answers `{ success: false, error }`).
 *
 * The socket is closed afterwards, as Node and Fastify do: the parser's state is unknown.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { buildErrorBody, errorGroupOf } from "@trove/schema";

interface HttpParserError extends Error {
  code?: string;
  /** The bytes the parser had when it gave up: a Buffer from Node (absent for timeouts). */
  rawPacket?: unknown;
}

/** Status and message of a parser error. */
function classify(error: HttpParserError): { status: number; message: string } {
  switch (error.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, message: "The request did not arrive in time" };
    case "HPE_HEADER_OVERFLOW":
      return { status: 431, message: "Exceeded maximum allowed HTTP header size (the URL counts)" };
    default:
      return { status: 400, message: "Malformed HTTP request" };
  }
}

/** The path of the request line in the bytes read so far, if they reach that far. */
export function requestPathOf(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return "";
  // Only the start matters: method, a space, and the path up to `?`, a space or the cut.
  const start = rawPacket.subarray(0, 512).toString("latin1");
  return /^[A-Z]+ (\/[^\s?]*)/.exec(start)?.[1] ?? "";
}

/** The whole raw HTTP response for a parser error, in the envelope of the request's group. */
export function clientErrorResponse(error: HttpParserError): string {
  const { status, message } = classify(error);
  const body = JSON.stringify(
    buildErrorBody(errorGroupOf(requestPathOf(error.rawPacket)), status, { message }),
  );
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Content-Type: application/json; charset=utf-8",
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

/** Fastify's `clientErrorHandler` option. Not logged: a client's broken HTTP is not our event. */
export function clientErrorHandler(error: HttpParserError, socket: Socket): void {
  // A reset connection is gone already: nothing to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  if (socket.writable) socket.write(clientErrorResponse(error));
  socket.destroy(error);
}
