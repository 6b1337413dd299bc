/**
 * Request ids: an incoming `x-request-id` (1 to 128 of `A-Za-z0-9._:-`) is kept, anything else is
 * replaced by a new UUID; the id is echoed in the `x-request-id` response header and tags every
 * log line of the request (`reqId`).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import fp from "fastify-plugin";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function genRequestId(request: IncomingMessage): string {
  const header = request.headers["x-request-id"];
  const value = Array.isArray(header) ? header[0] : header;
  return value && REQUEST_ID.test(value) ? value : randomUUID();
}

export const requestIdPlugin = fp(
  async (app) => {
    // Callback hooks rather than async ones here and in the other per-request plugins: each
    // async hook is a promise and a microtask turn on every request.
    app.addHook("onRequest", (request, reply, done) => {
      reply.header("x-request-id", request.id);
      done();
    });
  },
  { name: "trove-request-id", fastify: "5.x" },
);
