/**
 * Endpoint groups decide the error envelope (./error-envelope.ts). A request's group comes from
 * its path: `/api/v1/uploads` → upload, `/api/v1/multipart` → multipart, `/api/v1/files`,
 * `/api/v1/folders`, `/api/v1/sources` → their own; everything else (the delivery host, health,
 * upload tokens) is `other`. `/admin/v1/...` is `admin`: one envelope for every status, with an
 * `errorCode` (./error-envelope.ts).
 */
export const ERROR_GROUPS = ["upload", "multipart", "files", "folders", "sources", "admin"] as const;
export type ErrorGroup = (typeof ERROR_GROUPS)[number];
/** The envelope group of any request: an API group or `other`. */
export type ResponseGroup = ErrorGroup | "other";

const GROUP_PATH = /^\/api\/v1\/(uploads|multipart|files|folders|sources)(?:[/?]|$)/;
const ADMIN_PATH = /^\/admin\/v1(?:[/?]|$)/;

/** The group of a request URL (path, optionally with its query). */
export function errorGroupOf(url: string): ResponseGroup {
  if (ADMIN_PATH.test(url)) return "admin";
  const segment = GROUP_PATH.exec(url)?.[1];
  if (segment === undefined) return "other";
  return segment === "uploads" ? "upload" : (segment as ErrorGroup);
}
