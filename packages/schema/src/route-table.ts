/**
 * The route table: every operation of the API and the admin API with what routing needs and no
 * zod, so the SDK's upload bundle and the server's error handling can read it. Each operation is
 * written here once: its number in the spec, method, Fastify-style path (`:param`), key
 * requirement, error group (./error-groups.ts), body content type and success status. The
 * registries (ENDPOINTS in ./endpoints.ts, ADMIN_ENDPOINTS in ./admin-endpoints.ts) attach the
 * schemas, summary and documented errors to each entry by operationId; the server registers every
 * route from them (apps/server/src/routes/endpoint-route.ts), and a server test fails when a route
 * under /api or /admin is missing from this table (apps/server/test/route-table.test.ts).
 */

/**
 * Endpoint groups decide the error envelope (./error-envelope.ts); each route names its own.
 * `admin` is `/admin/v1/...`: one envelope for every status, with an `errorCode`.
 */
export const ERROR_GROUPS = ["upload", "multipart", "files", "folders", "sources", "admin"] as const;
export type ErrorGroup = (typeof ERROR_GROUPS)[number];

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
/**
 * `any`: public or private key; `private`: private key only; `none`: signed URL, no key;
 * `admin`: the server's admin token, never a workspace key (./admin-endpoints.ts).
 */
export type KeyRequirement = "any" | "private" | "none" | "admin";

export interface RouteEntry {
  /** The spec's endpoint number (the admin API's start at 101). */
  readonly number: number;
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Fastify-style path (`:param`); `{param}` in OpenAPI. */
  readonly path: string;
  readonly key: KeyRequirement;
  readonly group: ErrorGroup;
  readonly bodyContentType?: "application/json" | "multipart/form-data" | "application/octet-stream";
  /** Every body field is optional, and so is the body: a request without one is read as `{}`. */
  readonly bodyOptional?: true;
  readonly successStatus: 200 | 201 | 202 | 204;
}

// The paths the SDK's upload-only bundle calls, as constants that the entries below use, so that
// the bundle imports them (UPLOAD_PATHS) without the rest of the table: the whole table would cost
// it 1.3 kB of an 8.3 kB gzipped budget. A bundler drops the table only if nothing reads it, and
// only while its entries hold no template literal (one might call toString).
const UPLOAD_FILE_PATH = "/api/v1/uploads";
const UPLOAD_FROM_URL_PATH = "/api/v1/uploads/remote";
const MULTIPART_START_PATH = "/api/v1/multipart/start";
const MULTIPART_COMPLETE_PATH = "/api/v1/multipart/complete";
const MULTIPART_SESSION_PATH = "/api/v1/multipart/:sessionId";

/** The upload endpoints' paths; `session` is a multipart session's (DELETE: abandon it). */
export const UPLOAD_PATHS = {
  direct: UPLOAD_FILE_PATH,
  remote: UPLOAD_FROM_URL_PATH,
  start: MULTIPART_START_PATH,
  complete: MULTIPART_COMPLETE_PATH,
  session: MULTIPART_SESSION_PATH,
} as const;

/** The public API (`/api/v1/...`), in the spec's order. */
export const API_ROUTES = [
  {
    number: 1,
    operationId: "uploadFile",
    method: "POST",
    path: UPLOAD_FILE_PATH,
    key: "any",
    group: "upload",
    bodyContentType: "multipart/form-data",
    successStatus: 200,
  },
  {
    number: 2,
    operationId: "uploadFromUrl",
    method: "POST",
    path: UPLOAD_FROM_URL_PATH,
    key: "any",
    group: "upload",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    number: 3,
    operationId: "startMultipartUpload",
    method: "POST",
    path: MULTIPART_START_PATH,
    key: "any",
    group: "multipart",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    number: 4,
    operationId: "uploadPart",
    method: "PUT",
    path: "/api/v1/multipart/parts/:sessionId/:partNumber",
    key: "none",
    group: "multipart",
    bodyContentType: "application/octet-stream",
    successStatus: 200,
  },
  {
    number: 5,
    operationId: "completeMultipartUpload",
    method: "POST",
    path: MULTIPART_COMPLETE_PATH,
    key: "any",
    group: "multipart",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    number: 6,
    operationId: "listFiles",
    method: "GET",
    path: "/api/v1/files",
    key: "private",
    group: "files",
    successStatus: 200,
  },
  {
    number: 7,
    operationId: "getFile",
    method: "GET",
    path: "/api/v1/files/:fileNo",
    key: "private",
    group: "files",
    successStatus: 200,
  },
  {
    number: 8,
    operationId: "renameFile",
    method: "PATCH",
    path: "/api/v1/files/:fileNo/rename",
    key: "private",
    group: "files",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    number: 9,
    operationId: "deleteFile",
    method: "DELETE",
    path: "/api/v1/files/:fileNo",
    key: "private",
    group: "files",
    successStatus: 200,
  },
  {
    number: 10,
    operationId: "createFolder",
    method: "POST",
    path: "/api/v1/folders",
    key: "private",
    group: "folders",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    number: 11,
    operationId: "listFolders",
    method: "GET",
    path: "/api/v1/folders",
    key: "private",
    group: "folders",
    successStatus: 200,
  },
  {
    number: 12,
    operationId: "renameFolder",
    method: "POST",
    path: "/api/v1/folders/rename/:folderNo",
    key: "private",
    group: "folders",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    number: 13,
    operationId: "deleteFolder",
    method: "DELETE",
    path: "/api/v1/folders/:folderNo",
    key: "private",
    group: "folders",
    successStatus: 200,
  },
  {
    number: 14,
    operationId: "createSource",
    method: "POST",
    path: "/api/v1/sources",
    key: "private",
    group: "sources",
    bodyContentType: "application/json",
    successStatus: 201,
  },
  {
    number: 15,
    operationId: "listSources",
    method: "GET",
    path: "/api/v1/sources",
    key: "private",
    group: "sources",
    successStatus: 200,
  },
  {
    number: 16,
    operationId: "getSource",
    method: "GET",
    path: "/api/v1/sources/:sourceId",
    key: "private",
    group: "sources",
    successStatus: 200,
  },
  {
    number: 17,
    operationId: "updateSource",
    method: "PATCH",
    path: "/api/v1/sources/:sourceId",
    key: "private",
    group: "sources",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    number: 18,
    operationId: "deleteSource",
    method: "DELETE",
    path: "/api/v1/sources/:sourceId",
    key: "private",
    group: "sources",
    successStatus: 204,
  },
  {
    number: 19,
    operationId: "createUploadToken",
    method: "POST",
    path: "/api/v1/uploads/tokens",
    key: "private",
    group: "upload",
    bodyContentType: "application/json",
    bodyOptional: true,
    successStatus: 200,
  },
  {
    number: 20,
    operationId: "updateFile",
    method: "PATCH",
    path: "/api/v1/files/:fileNo",
    key: "private",
    group: "files",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    number: 21,
    operationId: "createSignedUrl",
    method: "POST",
    path: "/api/v1/files/:fileNo/signed-url",
    key: "private",
    group: "files",
    bodyContentType: "application/json",
    bodyOptional: true,
    successStatus: 200,
  },
  {
    number: 22,
    operationId: "abortMultipartUpload",
    method: "DELETE",
    path: MULTIPART_SESSION_PATH,
    key: "any",
    group: "multipart",
    successStatus: 200,
  },
  {
    // Trove's own: what the workspace stores and was served (issue #36). The upload group's
    // envelope: every error carries an errorCode, as a quota refusal does.
    number: 23,
    operationId: "getUsage",
    method: "GET",
    path: "/api/v1/usage",
    key: "private",
    group: "upload",
    successStatus: 200,
  },
  {
    // Trove's own: move files between folders (rows only; issue #36).
    number: 24,
    operationId: "moveFiles",
    method: "POST",
    path: "/api/v1/files/move",
    key: "private",
    group: "files",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    // Trove's own: try a source's origin with its stored credentials (issue #36).
    number: 25,
    operationId: "testSource",
    method: "POST",
    path: "/api/v1/sources/:sourceId/test",
    key: "private",
    group: "sources",
    successStatus: 200,
  },
] as const satisfies readonly RouteEntry[];

/** The admin API (`/admin/v1/...`), registered only when the server has an admin token. */
export const ADMIN_ROUTES = [
  {
    number: 101,
    operationId: "adminCreateWorkspace",
    method: "POST",
    path: "/admin/v1/workspaces",
    key: "admin",
    group: "admin",
    bodyContentType: "application/json",
    successStatus: 201,
  },
  {
    number: 102,
    operationId: "adminListWorkspaces",
    method: "GET",
    path: "/admin/v1/workspaces",
    key: "admin",
    group: "admin",
    successStatus: 200,
  },
  {
    number: 103,
    operationId: "adminGetWorkspace",
    method: "GET",
    path: "/admin/v1/workspaces/:workspaceNo",
    key: "admin",
    group: "admin",
    successStatus: 200,
  },
  {
    number: 104,
    operationId: "adminUpdateWorkspace",
    method: "PATCH",
    path: "/admin/v1/workspaces/:workspaceNo",
    key: "admin",
    group: "admin",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    number: 105,
    operationId: "adminDeleteWorkspace",
    method: "DELETE",
    path: "/admin/v1/workspaces/:workspaceNo",
    key: "admin",
    group: "admin",
    successStatus: 200,
  },
  {
    number: 106,
    operationId: "adminCreateKey",
    method: "POST",
    path: "/admin/v1/workspaces/:workspaceNo/keys",
    key: "admin",
    group: "admin",
    bodyContentType: "application/json",
    successStatus: 201,
  },
  {
    number: 107,
    operationId: "adminListKeys",
    method: "GET",
    path: "/admin/v1/workspaces/:workspaceNo/keys",
    key: "admin",
    group: "admin",
    successStatus: 200,
  },
  {
    number: 108,
    operationId: "adminRevokeKey",
    method: "DELETE",
    path: "/admin/v1/workspaces/:workspaceNo/keys/:keyId",
    key: "admin",
    group: "admin",
    successStatus: 200,
  },
  {
    number: 109,
    operationId: "adminGetWebhookSecret",
    method: "GET",
    path: "/admin/v1/workspaces/:workspaceNo/webhook-secret",
    key: "admin",
    group: "admin",
    successStatus: 200,
  },
  {
    number: 110,
    operationId: "adminRotateWebhookSecret",
    method: "POST",
    path: "/admin/v1/workspaces/:workspaceNo/webhook-secret/rotate",
    key: "admin",
    group: "admin",
    bodyContentType: "application/json",
    bodyOptional: true,
    successStatus: 200,
  },
  {
    number: 111,
    operationId: "adminCreateWebhookEndpoint",
    method: "POST",
    path: "/admin/v1/workspaces/:workspaceNo/webhook-endpoints",
    key: "admin",
    group: "admin",
    bodyContentType: "application/json",
    successStatus: 201,
  },
  {
    number: 112,
    operationId: "adminListWebhookEndpoints",
    method: "GET",
    path: "/admin/v1/workspaces/:workspaceNo/webhook-endpoints",
    key: "admin",
    group: "admin",
    successStatus: 200,
  },
  {
    number: 113,
    operationId: "adminDeleteWebhookEndpoint",
    method: "DELETE",
    path: "/admin/v1/workspaces/:workspaceNo/webhook-endpoints/:endpointId",
    key: "admin",
    group: "admin",
    successStatus: 204,
  },
  {
    number: 114,
    operationId: "adminSetNamedTransform",
    method: "PUT",
    path: "/admin/v1/workspaces/:workspaceNo/transforms/:name",
    key: "admin",
    group: "admin",
    bodyContentType: "application/json",
    successStatus: 200,
  },
  {
    number: 115,
    operationId: "adminListNamedTransforms",
    method: "GET",
    path: "/admin/v1/workspaces/:workspaceNo/transforms",
    key: "admin",
    group: "admin",
    successStatus: 200,
  },
  {
    number: 116,
    operationId: "adminDeleteNamedTransform",
    method: "DELETE",
    path: "/admin/v1/workspaces/:workspaceNo/transforms/:name",
    key: "admin",
    group: "admin",
    successStatus: 204,
  },
  {
    number: 117,
    operationId: "adminListWebhookDeliveries",
    method: "GET",
    path: "/admin/v1/workspaces/:workspaceNo/webhook-deliveries",
    key: "admin",
    group: "admin",
    successStatus: 200,
  },
  {
    number: 118,
    operationId: "adminRedeliverWebhook",
    method: "POST",
    path: "/admin/v1/workspaces/:workspaceNo/webhook-deliveries/:deliveryId/redeliver",
    key: "admin",
    group: "admin",
    successStatus: 202,
  },
] as const satisfies readonly RouteEntry[];

/** Every operation, public then admin. */
// Marked pure: a spread is a call to a bundler, and this one must not keep the table in a bundle
// that reads only UPLOAD_PATHS.
export const ROUTE_TABLE: readonly (ApiRoute | AdminRoute)[] = /* @__PURE__ */ concatTables(
  API_ROUTES,
  ADMIN_ROUTES,
);

function concatTables<A, B>(first: readonly A[], second: readonly B[]): readonly (A | B)[] {
  return [...first, ...second];
}

export type ApiRoute = (typeof API_ROUTES)[number];
export type AdminRoute = (typeof ADMIN_ROUTES)[number];
export type RouteOperationId = (ApiRoute | AdminRoute)["operationId"];
export type RouteOf<Op extends RouteOperationId> = Extract<ApiRoute | AdminRoute, { operationId: Op }>;

/** The table entry of an operation, public or admin. */
export function routeOf<Op extends RouteOperationId>(operationId: Op): RouteOf<Op> {
  // A search, not a Map built on load, so a bundle that never calls it can leave the table out.
  const route = ROUTE_TABLE.find((entry) => entry.operationId === operationId);
  if (!route) throw new Error(`No route ${operationId} in the route table`);
  return route as RouteOf<Op>;
}

/** The names of a table path's `:param` segments, as a union: `"/a/:x/b/:y"` → `"x" | "y"`. */
type ParamNames<Path extends string> = Path extends `${string}/:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}/:${infer Name}`
    ? Name
    : never;

/** A route's path parameters as the router hands them over, before any schema reads them. */
export type RawPathParams<Op extends RouteOperationId> = Record<ParamNames<RouteOf<Op>["path"]>, string>;
