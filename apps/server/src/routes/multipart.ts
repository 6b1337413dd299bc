/**
 * Multipart upload endpoints 3 and 5, public or private key (the part PUTs of endpoint 4 are in
 * ./part-gateway.ts):
 *
 *   POST /api/v1/multipart/start      JSON multipartStartBodySchema -> 200 { session_id, part_size, parts, expires_at }
 *   POST /api/v1/multipart/complete   JSON { session_id }           -> 200 { success: true, data: <complete result> }
 *
 * Errors are the multipart envelope: 400 `{ success: false, error }` naming the problem ("size:
 * Too small: expected number to be >=1", "Missing parts: 3, 4", "Session expired"), 401
 * `{ success: false, error, message }`, 404 "Session not found" (unknown, or another workspace's),
 * 409 while another complete of the session runs longer than the wait. Behaviour and decisions:
 * src/multipart/index.ts.
 */
import type { FastifyPluginAsync } from "fastify";
import { completeSession, multipartDepsOf, startSession, toCompleteResult } from "../multipart/index.js";
import { registerEndpoint } from "./endpoint-route.js";

export const multipartRoutes: FastifyPluginAsync = async (app) => {
  const deps = multipartDepsOf(app);

  registerEndpoint(app, "startMultipartUpload", async (request) =>
    startSession(deps, request.auth, request.body),
  );

  // A one-shot token whose complete succeeded may repeat it (complete is idempotent).
  registerEndpoint(
    app,
    "completeMultipartUpload",
    async (request) => {
      const file = await completeSession(deps, request.auth, request.body.session_id);
      return { success: true as const, data: toCompleteResult(app, request.auth.workspaceNo, file) };
    },
    { config: { acceptsSpentUploadToken: true } },
  );
};
