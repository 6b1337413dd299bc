/**
 * The admin API (`/admin/v1/...`, ADMIN_ENDPOINTS of @trove/schema). buildApp registers it only
 * when TROVE_ADMIN_TOKEN is set: without a token its paths answer 404 like any unknown route, so
 * the server does not reveal that it has one. Every route takes the admin token (`config.auth`
 * "admin", src/plugins/auth.ts) and answers errors in the admin envelope `{ error, errorCode, message }`.
 */
import type { FastifyPluginAsync } from "fastify";
import { adminKeyRoutes } from "./admin-keys.js";
import { adminTransformRoutes } from "./admin-transforms.js";
import { adminWebhookRoutes } from "./admin-webhooks.js";
import { adminWorkspaceRoutes } from "./admin-workspaces.js";

export const adminRoutes: FastifyPluginAsync = async (app) => {
  await app.register(adminWorkspaceRoutes);
  await app.register(adminKeyRoutes);
  await app.register(adminWebhookRoutes);
  await app.register(adminTransformRoutes);
};
