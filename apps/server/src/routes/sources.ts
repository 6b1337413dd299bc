/**
 * Sources (spec endpoints 14 to 18), private key only, registered under /api/v1/sources:
 *
 *   POST   /api/v1/sources             201 { success: true, data }
 *   GET    /api/v1/sources             200 { sources, meta: { page, limit, total, hasMore } }
 *   GET    /api/v1/sources/:sourceId   200 { success: true, data }
 *   PATCH  /api/v1/sources/:sourceId   200 { success: true, data }
 *   DELETE /api/v1/sources/:sourceId   204, no body
 *
 * Secret fields are sealed at rest and masked in every response (src/sources/). Errors are thrown
 * and rendered by the errors plugin in the sources envelopes. Request bodies are never logged
 * (and src/logging.ts redacts secret fields should one ever be).
 */
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { parseUuidParam } from "../errors/params.js";
import {
  createSource,
  deleteSource,
  findSource,
  listSources,
  parseCreateSourceBody,
  parseListSourcesQuery,
  parseUpdateSourceBody,
  type SourceContext,
  serializeSource,
  updateSource,
} from "../sources/index.js";

interface SourceIdParams {
  sourceId: string;
}

export const sourceRoutes: FastifyPluginAsync = async (app) => {
  const contextOf = (request: FastifyRequest): SourceContext => ({
    db: app.db,
    secretKey: app.config.secretKey,
    workspaceId: request.auth.workspaceId,
  });
  const config = { auth: "private" as const };

  app.post("/", { config }, async (request, reply) => {
    const body = parseCreateSourceBody(request.body);
    const row = await createSource(contextOf(request), body);
    return reply.status(201).send({ success: true, data: serializeSource(row) });
  });

  app.get("/", { config }, async (request) => {
    const query = parseListSourcesQuery(request.query);
    const { rows, total } = await listSources(contextOf(request), query);
    return {
      sources: rows.map(serializeSource),
      meta: { page: query.page, limit: query.limit, total, hasMore: query.page * query.limit < total },
    };
  });

  app.get<{ Params: SourceIdParams }>("/:sourceId", { config }, async (request) => {
    const id = parseUuidParam(request.params.sourceId, "sources");
    return { success: true, data: serializeSource(await findSource(contextOf(request), id)) };
  });

  app.patch<{ Params: SourceIdParams }>("/:sourceId", { config }, async (request) => {
    const id = parseUuidParam(request.params.sourceId, "sources");
    const body = parseUpdateSourceBody(request.body);
    return { success: true, data: serializeSource(await updateSource(contextOf(request), id, body)) };
  });

  app.delete<{ Params: SourceIdParams }>("/:sourceId", { config }, async (request, reply) => {
    const id = parseUuidParam(request.params.sourceId, "sources");
    await deleteSource(contextOf(request), id);
    return reply.status(204).send();
  });
};
