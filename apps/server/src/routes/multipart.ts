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
import {
  type MultipartCompleteResponse,
  type MultipartSession,
  multipartCompleteBodySchema,
  multipartCompleteResponseSchema,
  multipartStartBodySchema,
} from "@trove/schema";
import type { FastifyPluginAsync } from "fastify";
import { completeSession, multipartDepsOf, startSession, toCompleteResult } from "../multipart/index.js";

export const multipartRoutes: FastifyPluginAsync = async (app) => {
  const deps = multipartDepsOf(app);
  const config = { auth: "any" as const };

  app.post("/api/v1/multipart/start", { config }, async (request): Promise<MultipartSession> => {
    const body = multipartStartBodySchema.parse(request.body);
    return startSession(deps, request.auth, body);
  });

  // A one-shot token whose complete succeeded may repeat it (complete is idempotent).
  app.post(
    "/api/v1/multipart/complete",
    { config: { ...config, acceptsSpentUploadToken: true } },
    async (request): Promise<MultipartCompleteResponse> => {
      const { session_id } = multipartCompleteBodySchema.parse(request.body);
      const file = await completeSession(deps, request.auth, session_id);
      return multipartCompleteResponseSchema.parse({
        success: true,
        data: toCompleteResult(app, request.auth.workspaceNo, file),
      });
    },
  );
};
