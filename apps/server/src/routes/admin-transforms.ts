/**
 * Admin API, named transforms (endpoints 114-116): set, list, remove, through the functions the
 * CLI uses (src/transforms/named-transforms.ts). Strict mode is a workspace field (PATCH workspace).
 */
import type { FastifyPluginAsync } from "fastify";
import { transformResource } from "../admin/admin-resources.js";
import { workspaceOr404 } from "../admin/workspace-lookup.js";
import { badRequest, HttpError } from "../errors/index.js";
import {
  checkName,
  listNamedTransforms,
  NamedTransformError,
  removeNamedTransform,
  setNamedTransform,
} from "../transforms/named-transforms.js";
import { registerEndpoint } from "./endpoint-route.js";

/** A name or definition the store refuses is the caller's to fix: a 400. */
function asBadRequest(error: unknown): unknown {
  return error instanceof NamedTransformError ? badRequest(error.message) : error;
}

/** The name's 400 before any lookup, so a malformed name is never reported as missing. */
function checkedName(name: string): void {
  try {
    checkName(name);
  } catch (error) {
    throw asBadRequest(error);
  }
}

export const adminTransformRoutes: FastifyPluginAsync = async (app) => {
  registerEndpoint(app, "adminSetNamedTransform", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    try {
      return transformResource(
        await setNamedTransform(app.db, workspace.id, request.params.name, request.body.transform),
      );
    } catch (error) {
      throw asBadRequest(error);
    }
  });

  registerEndpoint(app, "adminListNamedTransforms", async (request) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    return { transforms: (await listNamedTransforms(app.db, workspace.id)).map(transformResource) };
  });

  registerEndpoint(app, "adminDeleteNamedTransform", async (request, reply) => {
    const workspace = await workspaceOr404(app.db, request.params.workspaceNo);
    const { name } = request.params;
    checkedName(name);
    try {
      await removeNamedTransform(app.db, workspace.id, name);
    } catch (error) {
      // The name is well formed (checked above): the only refusal left is that it is not there.
      if (error instanceof NamedTransformError) throw new HttpError(404, error.message);
      throw error;
    }
    return reply.send();
  });
};
