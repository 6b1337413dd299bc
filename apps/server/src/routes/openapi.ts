/** GET /openapi.json: the machine-readable API description (OpenAPI 3.1, version 1.0.0). */

import { openApiDocument } from "@trove/schema";
import type { FastifyPluginAsync } from "fastify";

export const openApiRoutes: FastifyPluginAsync = async (app) => {
  const body = JSON.stringify(openApiDocument);
  app.get("/openapi.json", { config: { auth: "none" } }, async (_request, reply) =>
    reply.type("application/json; charset=utf-8").header("cache-control", "public, max-age=300").send(body),
  );
};
