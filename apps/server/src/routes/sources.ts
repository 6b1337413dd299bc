/**
 * Sources (spec endpoints 14 to 18), private key only, registered under /api/v1/sources:
 *
 *   POST   /api/v1/sources             201 { success: true, data }
 *   GET    /api/v1/sources             200 { sources, meta: { page, limit, total, hasMore } }
 *   GET    /api/v1/sources/:sourceId   200 { success: true, data }
 *   PATCH  /api/v1/sources/:sourceId   200 { success: true, data }
 *   DELETE /api/v1/sources/:sourceId   204, no body
 *   POST   /api/v1/sources/:sourceId/test  200 { success: true, data: { ok, status, message, elapsed_ms } }  (Trove's)
 *
 * Secret fields are sealed at rest and masked in every response (src/sources/). Errors are thrown
 * and rendered by the errors plugin in the sources envelopes. Request bodies are never logged
 * (and src/logging/logger-options.ts redacts secret fields should one ever be).
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { parseUuidParam } from "../errors/params.js";
import type { Source } from "../generated/prisma/client.js";
import {
  assertCreatable,
  createSource,
  deleteSource,
  findSource,
  listSources,
  type SourceContext,
  serializeSource,
  sourceBodyError,
  updateSource,
} from "../sources/index.js";
import { testSource } from "../sources/test-source.js";
import { type EndpointOptions, registerEndpoint } from "./endpoint-route.js";

/** Create and update bodies answer with the spec's configuration message (src/sources/). */
const SOURCE_BODY: EndpointOptions = {
  invalidRequest: (part, issues, request) =>
    part === "body" ? sourceBodyError(request.body, issues) : undefined,
};

export const sourceRoutes: FastifyPluginAsync = async (app) => {
  const contextOf = (request: FastifyRequest): SourceContext => ({
    db: app.db,
    secretKey: app.config.secretKey,
    workspaceId: request.auth.workspaceId,
  });
  const serialize = (request: FastifyRequest) => (row: Source) =>
    serializeSource(row, request.auth.workspaceNo);

  registerEndpoint(
    app,
    "createSource",
    async (request) => {
      assertCreatable(request.body);
      const row = await createSource(contextOf(request), request.body);
      return { success: true as const, data: serialize(request)(row) };
    },
    SOURCE_BODY,
  );

  registerEndpoint(app, "listSources", async (request) => {
    const { query } = request;
    const { rows, total } = await listSources(contextOf(request), query);
    return {
      sources: rows.map(serialize(request)),
      meta: { page: query.page, limit: query.limit, total, hasMore: query.page * query.limit < total },
    };
  });

  registerEndpoint(app, "testSource", async (request) => {
    const id = parseUuidParam(request.params.sourceId, "sources");
    const source = await findSource(contextOf(request), id);
    const result = await testSource(
      {
        secretKey: app.config.secretKey,
        trustedRanges: app.config.trustedRanges,
        gcsApiEndpoint: app.config.origins.gcsApiEndpoint,
        timeoutMs: app.config.origins.timeoutMs,
        ...(app.config.outbound ? { doubles: app.config.outbound } : {}),
      },
      source,
    );
    return { success: true as const, data: result };
  });

  registerEndpoint(app, "getSource", async (request) => {
    const id = parseUuidParam(request.params.sourceId, "sources");
    return { success: true as const, data: serialize(request)(await findSource(contextOf(request), id)) };
  });

  registerEndpoint(
    app,
    "updateSource",
    async (request) => {
      const id = parseUuidParam(request.params.sourceId, "sources");
      const data = serialize(request)(await updateSource(contextOf(request), id, request.body));
      return { success: true as const, data };
    },
    SOURCE_BODY,
  );

  registerEndpoint(app, "deleteSource", async (request, reply) => {
    const id = parseUuidParam(request.params.sourceId, "sources");
    await deleteSource(contextOf(request), id);
    return reply.send();
  });
};
