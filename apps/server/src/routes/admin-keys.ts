/**
 * Admin API, API keys (endpoints 106-108): create (the secret in the answer, once), list (never a
 * secret or hash), revoke. A revoke drops the key from this instance's cache at once; other
 * instances refuse it within `keyCacheMs` (src/keys/active-key-cache.ts).
 */
import type { FastifyPluginAsync } from "fastify";
import { keyResource } from "../admin/admin-resources.js";
import { workspaceOr404 } from "../admin/workspace-lookup.js";
import { badRequest, HttpError } from "../errors/index.js";
import { createApiKey, listApiKeys, revokeApiKeyById } from "../keys/api-keys.js";
import { normalizePolicy } from "../uploads/upload-policy.js";
import { registerEndpoint } from "./endpoint-route.js";

export const adminKeyRoutes: FastifyPluginAsync = async (app) => {
  registerEndpoint(app, "adminCreateKey", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    const { type, name, expires_at, policy } = request.body;
    let checkedPolicy: typeof policy;
    try {
      checkedPolicy = policy === undefined ? undefined : normalizePolicy(policy);
    } catch (error) {
      throw badRequest(`policy: ${(error as Error).message}`);
    }
    const { key, record } = await createApiKey(app.db, {
      workspaceId: workspace.id,
      type,
      ...(name === undefined ? {} : { name }),
      ...(expires_at === undefined ? {} : { expiresAt: new Date(expires_at) }),
      ...(checkedPolicy === undefined ? {} : { policy: checkedPolicy }),
    });
    return { ...keyResource(record), key };
  });

  registerEndpoint(app, "adminListKeys", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    return { keys: (await listApiKeys(app.db, workspace.id)).map(keyResource) };
  });

  registerEndpoint(app, "adminRevokeKey", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    const record = await revokeApiKeyById(app.db, workspace.id, request.params.keyId);
    if (!record) throw new HttpError(404, "API key not found");
    app.activeKeys.forget(record.hash);
    return keyResource(record);
  });
};
