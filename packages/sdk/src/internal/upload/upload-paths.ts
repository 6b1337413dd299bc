/**
 * The upload endpoints' paths. The full client takes paths from the ENDPOINTS registry; the
 * upload engine keeps its four here because importing the registry pulls every zod schema into
 * the upload-only bundle. upload-paths.test.ts checks they match the registry. `session` is the
 * prefix of `/api/v1/multipart/{sessionId}` (DELETE: abandon a session).
 */
export const UPLOAD_PATHS = {
  direct: "/api/v1/uploads",
  remote: "/api/v1/uploads/remote",
  start: "/api/v1/multipart/start",
  complete: "/api/v1/multipart/complete",
  session: "/api/v1/multipart",
} as const;
