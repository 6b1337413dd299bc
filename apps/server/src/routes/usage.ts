/** `GET /api/v1/usage` (private key): what the workspace stores and was served (src/usage/read-usage.ts). */
import type { FastifyPluginAsync } from "fastify";
import { readUsage } from "../usage/read-usage.js";
import { registerEndpoint } from "./endpoint-route.js";

export const usageRoutes: FastifyPluginAsync = async (app) => {
  registerEndpoint(app, "getUsage", async (request) => ({
    success: true as const,
    data: await readUsage(app.database.sql, request.auth.workspaceId, request.query.days),
  }));
};
