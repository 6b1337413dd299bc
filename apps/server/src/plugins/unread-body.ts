/**
 * `unread-body` plugin: a reply sent before the request body was read to its end must not leave
 * the connection stuck.
 *
 * Node discards an unread body by itself only when nothing started reading it. A streamed body
 * that a route stopped reading half-way (an upload refused for its `transform` field after
 * busboy began parsing, a part refused mid-stream) stays paused in the socket: the client reads
 * the error, sends its next request on the same keep-alive connection, and that request waits
 * forever behind the unread bytes. The fuzzer found it as a request that never got an answer.
 *
 * So, whenever a reply goes out with the body unfinished, whatever was reading it is detached and
 * the rest is read and dropped after the reply. When the declared Content-Length is at most the
 * route's limit (`config.drainUnreadBodyUpTo`, default DRAIN_MAX_BYTES) the connection stays
 * usable; a longer or chunked body gets `Connection: close` and the socket is closed once the
 * limit is passed. (Go's net/http does the same, with 256 KiB.) The reply is never delayed.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

/** What is read and dropped to keep a connection, unless the route says otherwise. */
export const DRAIN_MAX_BYTES = 1024 * 1024;

/** Detaches whatever was reading the body (busboy, a storage pipeline) and drops what follows. */
function discardRest(raw: IncomingMessage, limit: number): void {
  raw.unpipe();
  raw.removeAllListeners("data");
  let dropped = 0;
  raw.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limit) raw.socket?.destroy();
  });
  // The client may go away mid-body: nothing left to answer.
  raw.on("error", () => {});
  raw.resume();
}

function settleUnreadBody(request: FastifyRequest, reply: FastifyReply): void {
  const { raw } = request;
  if (raw.complete || raw.readableEnded || raw.destroyed) return;
  const limit = request.routeOptions.config.drainUnreadBodyUpTo ?? DRAIN_MAX_BYTES;
  const length = Number(raw.headers["content-length"]);
  if (!(Number.isFinite(length) && length <= limit)) reply.header("connection", "close");
  discardRest(raw, limit);
}

export const unreadBodyPlugin = fp(
  async (app) => {
    app.addHook("onSend", (request, reply, payload, done) => {
      settleUnreadBody(request, reply);
      done(null, payload);
    });
  },
  { name: "trove-unread-body" },
);
