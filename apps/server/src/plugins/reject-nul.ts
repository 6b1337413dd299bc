/**
 * `reject-nul` plugin: PostgreSQL cannot store a NUL character in `text` or `jsonb`, so a NUL
 * anywhere in a request's query or parsed JSON body would fail deep inside a query as a 500.
 * This hook refuses it up front as the group's 400, for every route at once. Path parameters are
 * left to their parsers, which answer a malformed id with the group's 404. Upload form fields
 * are streamed past Fastify's parser, so the upload code calls `assertNoNul` on them itself
 * (after parsing `metadata`, whose JSON may spell the character as an escape).
 */
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { HttpError } from "../errors/http-error.js";

const MAX_DEPTH = 64;

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\0");
  if (depth > MAX_DEPTH || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((item) => hasNul(item, depth + 1));
  // Parsed JSON and query objects only: a streamed body (the part gateway's) or bytes are not text.
  if (ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === "function") return false;
  return Object.entries(value).some(([key, item]) => key.includes("\0") || hasNul(item, depth + 1));
}

/** Throws the group's 400 when `value` holds a NUL character in any string or key. */
export function assertNoNul(value: unknown, where: string): void {
  if (hasNul(value)) throw new HttpError(400, `${where} must not contain NUL characters`);
}

export const rejectNulPlugin = fp(
  async (app) => {
    app.addHook("preHandler", (request: FastifyRequest, _reply, done) => {
      try {
        assertNoNul(request.query, "Query parameters");
        assertNoNul(request.body, "Request body");
        done();
      } catch (error) {
        done(error as Error);
      }
    });
  },
  { name: "trove-reject-nul" },
);
