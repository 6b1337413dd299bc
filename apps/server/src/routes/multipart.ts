/**
 * Multipart upload endpoints 3 and 5, and Trove's 22, public key, private key or upload token
 * (the part PUTs of endpoint 4 are in ./part-gateway.ts):
 *
 *   POST   /api/v1/multipart/start        JSON multipartStartBodySchema -> 200 { session_id, part_size, parts, expires_at }
 *   POST   /api/v1/multipart/complete     JSON { session_id }           -> 200 { success: true, data: <complete result> }
 *   DELETE /api/v1/multipart/:sessionId   no body                       -> 200 { success: true }
 *
 * Errors are the multipart envelope: 400 `{ success: false, error }` naming the problem ("size:
 * Too small: expected number to be >=1", "Missing parts: 3, 4", "Session expired"), 401
 * `{ success: false, error, message }`, 404 "Session not found" (unknown, another workspace's,
 * started by another credential, or a completed session past its expiry), 409 while another
 * complete of the session runs longer than the wait (and for abandoning a completed session).
 * A bad `transform` at start is named as direct upload names it: the parser's message alone
 * ("q_200: quality must be 1..100"), code INVALID_TRANSFORM.
 * Behaviour and decisions: src/multipart/index.ts.
 */
import type { FastifyPluginAsync } from "fastify";
import { abandonSession, completeSession, startSession, toCompleteResult } from "../multipart/index.js";
import { invalidFields } from "../uploads/upload-errors.js";
import { registerEndpoint } from "./endpoint-route.js";

export const multipartRoutes: FastifyPluginAsync = async (app) => {
  const deps = app.multipartDeps;

  registerEndpoint(
    app,
    "startMultipartUpload",
    async (request) => startSession(deps, request.auth, request.body),
    {
      invalidRequest: (part, issues) =>
        part === "body" && issues[0]?.path[0] === "transform" ? invalidFields(issues) : undefined,
    },
  );

  // A token's session holds one of its files from start: a one-shot token that started it is
  // "used up", and still completes (repeatedly: complete is idempotent) or abandons it.
  registerEndpoint(
    app,
    "completeMultipartUpload",
    async (request) => {
      const file = await completeSession(deps, request.auth, request.body.session_id);
      return { success: true as const, data: toCompleteResult(app, request.auth, file) };
    },
    { config: { acceptsSpentUploadToken: true } },
  );

  registerEndpoint(
    app,
    "abortMultipartUpload",
    async (request) => {
      await abandonSession(deps, request.auth, request.params.sessionId);
      return { success: true as const };
    },
    { config: { acceptsSpentUploadToken: true } },
  );
};
