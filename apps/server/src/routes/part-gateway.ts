/**
 * Trove's part gateway (endpoint 4 in gateway mode), no API key (`auth: "none"`):
 *
 *   PUT /api/v1/multipart/parts/:sessionId/:partNumber?expires=&signature=   raw part bytes
 *
 * CORS (preflights, `ETag` exposed to pages) comes from the app-wide plugin, src/plugins/cors.ts.
 *
 * The body is not parsed: a content-type parser scoped to this plugin hands the request stream to
 * the handler, which streams it into storage (src/multipart/receive-part.ts), so the JSON body
 * limit does not apply and nothing is buffered. `Content-Type: application/octet-stream` is
 * required; anything else (also an unparsable Content-Type, which Fastify would answer with 415)
 * is a 400, as is every other failure (spec: part upload failure is 400 `{ success: false, error }`).
 *
 * After a refusal the rest of the body is read and discarded (src/plugins/unread-body.ts) so the
 * connection stays usable, for a part of up to DRAIN_LIMIT bytes; a longer body closes it.
 */
import { Readable } from "node:stream";
import { partUploadResponseSchema, type RawPathParams, routeOf } from "@trove/schema";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { badRequest } from "../errors/index.js";
import { receivePart } from "../multipart/index.js";
import { sendError } from "../plugins/errors.js";

/** Up to the largest part the SDK sends: a refused part should not cost the connection. */
const DRAIN_LIMIT = 64 * 1024 * 1024;
const CONTENT_TYPE_MESSAGE = "Content-Type must be application/octet-stream";

interface PartQuery {
  expires?: unknown;
  signature?: unknown;
}

function isOctetStream(contentType: string | undefined): boolean {
  return (contentType ?? "").split(";", 1)[0]?.trim().toLowerCase() === "application/octet-stream";
}

/** Aborts when the client goes away before the response is written. */
function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) controller.abort(new Error("client disconnected"));
  });
  return controller.signal;
}

export const partGatewayRoutes: FastifyPluginAsync = async (app) => {
  const deps = app.multipartDeps;
  // The route table's entry: method, path, key requirement (none), group and operation id.
  const route = routeOf("uploadPart");

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
  app.setErrorHandler((error, request, reply) => {
    const code = (error as { code?: unknown }).code;
    return sendError(
      request,
      reply,
      code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" ? badRequest(CONTENT_TYPE_MESSAGE) : error,
    );
  });

  // Registered by hand, not with registerEndpoint: the body is a stream and receivePart checks
  // the parameters itself (a bad one is the spec's 400, where registerEndpoint's would be a 404).
  app.route<{ Params: RawPathParams<"uploadPart">; Querystring: PartQuery }>({
    method: route.method,
    url: route.path,
    config: {
      auth: route.key,
      errorGroup: route.group,
      operationId: route.operationId,
      drainUnreadBodyUpTo: DRAIN_LIMIT,
    },
    handler: async (request, reply) => {
      if (!isOctetStream(request.headers["content-type"])) throw badRequest(CONTENT_TYPE_MESSAGE);
      const body = request.body instanceof Readable ? request.body : Readable.from([]);
      const result = await receivePart(deps, {
        sessionId: request.params.sessionId,
        partNumber: request.params.partNumber,
        expires: request.query.expires,
        signature: request.query.signature,
        contentLength: request.headers["content-length"],
        body,
        signal: abortOnDisconnect(reply),
      });
      reply.header("etag", `"${result.etag}"`);
      return partUploadResponseSchema.parse(result);
    },
  });
};
