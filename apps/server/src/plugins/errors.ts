/**
 * `errors` plugin: the one error handler and the not-found handler.
 *
 * Every thrown error becomes the envelope of the request's group for its status (see
 * `buildErrorBody` in @trove/schema). Mapping:
 * - `HttpError`                         -> its status and fields
 * - an endpoint's request schemas fail  -> the route's `invalidRequest`, else 400 with the issues,
 *                                          or the group's 404 when it is a path parameter
 * - ZodError (thrown from a handler)    -> 400 with the issues as message
 * - Prisma P2025 (record not found)     -> the group's 404
 * - other errors with a 4xx statusCode  -> that status (bad JSON 400, wrong content type 415,
 *                                          body too large 413, ...); a malformed request never
 *                                          gets a 5xx
 * - the database or storage out of reach -> 503 with Retry-After (src/errors/dependency-unavailable.ts)
 * - anything else                       -> 500 without details, logged with the request id
 * A client that closed the connection before its body was in (an abandoned upload) is logged as
 * one info line, "client closed the request", whatever error it caused: no stack, not an error.
 * Unknown routes: 404 `{ error: "Not Found", message: "Route GET /x not found" }`.
 */
import {
  buildErrorBody,
  type ErrorBodyInput,
  errorGroupOf,
  notFoundMessage,
  type ResponseGroup,
  retryAfterSecondsOf,
} from "@trove/schema";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { isRecordNotFound } from "../db/prisma-errors.js";
import { DEPENDENCY_RETRY_AFTER_SECONDS, isDependencyUnavailable } from "../errors/dependency-unavailable.js";
import { HttpError } from "../errors/http-error.js";
import { redactUrl } from "../logging/index.js";
import { type RequestPart, RequestValidationError } from "../routes/endpoint-route.js";

interface Normalized {
  status: number;
  input: ErrorBodyInput;
  headers?: Record<string, string> | undefined;
}

interface ZodLikeError {
  name: string;
  issues: Array<{ path: PropertyKey[]; message: string }>;
}

function isZodError(error: unknown): error is ZodLikeError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { name?: unknown }).name === "ZodError" &&
    Array.isArray((error as { issues?: unknown }).issues)
  );
}

/** "field: problem; other: problem" from zod issues. */
export function formatZodIssues(issues: ZodLikeError["issues"]): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

const CONTENT_TYPE_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "Unsupported content type",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "Content-Length does not match the body",
  FST_ERR_CTP_EMPTY_JSON_BODY: "Body cannot be empty when Content-Type is application/json",
  FST_ERR_CTP_BODY_TOO_LARGE: "Request body is too large",
};

export function normalizeError(error: unknown, group: ResponseGroup): Normalized {
  if (error instanceof HttpError) {
    const headers = { ...error.headers };
    // A 503 that knows when capacity returns (a busy renderer) says so, as a 429 always does.
    if (error.status === 429 || (error.status === 503 && error.retryAfterSeconds !== undefined)) {
      headers["retry-after"] = String(retryAfterSecondsOf(error.retryAfterSeconds));
    }
    return { status: error.status, input: error, headers };
  }
  const fastifyError = error as Partial<FastifyError>;
  if (isZodError(error)) return { status: 400, input: { message: formatZodIssues(error.issues) } };
  if (isRecordNotFound(error)) return { status: 404, input: { message: notFoundMessage(group) } };
  const statusCode = fastifyError?.statusCode;
  if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500) {
    const code = fastifyError.code ?? "";
    // A body Fastify could not parse as JSON.
    if (code === "FST_ERR_CTP_INVALID_JSON_BODY" || (error instanceof SyntaxError && statusCode === 400)) {
      return { status: 400, input: { message: "Malformed JSON in request body" } };
    }
    const status = code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" ? 415 : statusCode;
    const message = CONTENT_TYPE_MESSAGES[code] ?? fastifyError.message ?? "Bad Request";
    return { status, input: { message } };
  }
  if (isDependencyUnavailable(error)) {
    return {
      status: 503,
      input: {
        message: `Service temporarily unavailable; retry in ${DEPENDENCY_RETRY_AFTER_SECONDS} seconds`,
      },
      headers: { "retry-after": String(DEPENDENCY_RETRY_AFTER_SECONDS) },
    };
  }
  return { status: 500, input: { message: "Internal Server Error" } };
}

export function groupOf(request: FastifyRequest): ResponseGroup {
  return request.routeOptions?.config?.errorGroup ?? errorGroupOf(request.url);
}

/**
 * A request that failed its endpoint's schemas (src/routes/endpoint-route.ts): the route's own
 * mapping where the spec fixes the body, else the group's 404 for a path parameter (a malformed
 * id names nothing) and a 400 listing the issues for the rest.
 */
function fromValidation(error: RequestValidationError, request: FastifyRequest, group: ResponseGroup) {
  const part = (error.validationContext ?? "body") as RequestPart;
  const mapped = request.routeOptions?.config?.invalidRequest?.(part, error.issues, request);
  if (mapped) return mapped;
  if (part === "params") return new HttpError(404, notFoundMessage(group));
  return new HttpError(400, formatZodIssues(error.issues));
}

/**
 * Whether the client went away before its request body was all in: a closed tab, a lost network,
 * an upload paused and given up. Whatever error that caused (an AbortError, ECONNRESET, a premature
 * close, a multipart body cut short) is the client's choice, not the server's failure.
 */
function clientClosedMidRequest(request: FastifyRequest): boolean {
  const raw = request.raw;
  return !raw.complete && (raw.destroyed || raw.socket?.destroyed === true);
}

/** One info line, without a stack: what was asked, how far the body got, and what broke. */
function logClientClosed(request: FastifyRequest, error: unknown): void {
  const expected = Number(request.headers["content-length"]);
  request.log.info(
    {
      method: request.method,
      url: redactUrl(request.url),
      // On the connection (headers included; earlier requests too on a reused connection).
      bytesReceived: request.raw.socket?.bytesRead ?? 0,
      ...(Number.isFinite(expected) ? { bytesExpected: expected } : {}),
      reason: redactUrl(error instanceof Error ? error.message : String(error)),
    },
    "client closed the request",
  );
}

export function sendError(request: FastifyRequest, reply: FastifyReply, thrown: unknown): FastifyReply {
  const group = groupOf(request);
  const error = thrown instanceof RequestValidationError ? fromValidation(thrown, request, group) : thrown;
  const { status, input, headers } = normalizeError(error, group);
  if (clientClosedMidRequest(request)) {
    logClientClosed(request, error);
  } else if (status >= 500) {
    request.log.error({ err: error, reqId: request.id }, "request failed");
  } else {
    request.log.info(
      // A message may quote what the client sent (a URL with its signature, say): redacted.
      { status, code: (error as { code?: unknown })?.code, msg: redactUrl(input.message) },
      "request rejected",
    );
  }
  // A delivery sets its caching headers before it may fail (a render refused, a read that broke):
  // an error must never be cached as the object was to be.
  reply.removeHeader("etag");
  reply.removeHeader("last-modified");
  reply.header("cache-control", "no-store");
  if (headers) reply.headers(headers);
  return reply
    .status(status)
    .type("application/json; charset=utf-8")
    .send(buildErrorBody(group, status, input, request.routeOptions?.config?.errorVariant));
}

export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error, request, reply) => sendError(request, reply, error));
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split("?", 1)[0];
      reply.status(404).send({ error: "Not Found", message: `Route ${request.method} ${path} not found` });
    });
  },
  { name: "trove-errors", fastify: "5.x" },
);
