/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers). */
import type { FastifyPluginAsync } from "fastify";

export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get("/healthz", { config: { auth: "none" }, logLevel: "warn" }, async () => ({ status: "ok" }));
  app.get("/readyz", { config: { auth: "none" }, logLevel: "warn" }, async (request, reply) => {
    try {
      await app.database.ping();
      return { status: "ready", database: app.dbKind };
    } catch (error) {
      request.log.warn({ err: error }, "readiness check failed");
      return reply.status(503).send({ error: "Service Unavailable", message: "Database is not reachable" });
    }
  });
};
