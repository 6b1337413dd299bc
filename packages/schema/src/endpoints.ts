import type * as z from "zod";
import { ADMIN_ENDPOINTS } from "./admin-endpoints.js";
import { messageResponseSchema } from "./common.js";
import type { ErrorGroup } from "./error-groups.js";
import {
  fileDetailsResponseSchema,
  fileNoParamsSchema,
  fileRecordSchema,
  listFilesQuerySchema,
  listFilesResponseSchema,
  renameFileBodySchema,
  signedUrlBodySchema,
  signedUrlResponseSchema,
  updateFileBodySchema,
} from "./files.js";
import {
  createFolderBodySchema,
  createFolderResponseSchema,
  folderNoParamsSchema,
  folderRecordSchema,
  listFoldersQuerySchema,
  listFoldersResponseSchema,
  renameFolderBodySchema,
} from "./folders.js";
import {
  multipartCompleteBodySchema,
  multipartCompleteResponseSchema,
  multipartSessionSchema,
  multipartStartBodySchema,
  partUploadParamsSchema,
  partUploadResponseSchema,
} from "./multipart.js";
import {
  createSourceBodySchema,
  listSourcesQuerySchema,
  listSourcesResponseSchema,
  sourceIdParamsSchema,
  sourceResponseSchema,
  updateSourceBodySchema,
} from "./sources.js";
import { createUploadTokenBodySchema, uploadTokenResponseSchema } from "./upload-tokens.js";
import { anyUploadResponseSchema, directUploadFieldsSchema, remoteUploadBodySchema } from "./uploads.js";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
/**
 * `any`: public or private key; `private`: private key only; `none`: signed URL, no key;
 * `admin`: the server's admin token, never a workspace key (./admin-endpoints.ts).
 */
export type KeyRequirement = "any" | "private" | "none" | "admin";

export interface EndpointDefinition {
  /** The spec's endpoint number. */
  readonly number: number;
  readonly operationId: string;
  readonly summary: string;
  readonly method: HttpMethod;
  /** Fastify-style path (`:param`); `{param}` in OpenAPI. */
  readonly path: string;
  readonly key: KeyRequirement;
  readonly group: ErrorGroup;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly bodyContentType?: "application/json" | "multipart/form-data" | "application/octet-stream";
  /** Every body field is optional, and so is the body: a request without one is read as `{}`. */
  readonly bodyOptional?: true;
  readonly successStatus: 200 | 201 | 204;
  /** Undefined for a response without a body (204). */
  readonly response?: z.ZodType;
  /** Error statuses this endpoint documents, besides 401/429/500 which every keyed endpoint has. */
  readonly errors: readonly number[];
}

/**
 * Every endpoint of the spec, with the schemas of its request and response. The server registers
 * its routes from it (apps/server/src/routes/endpoint-route.ts), the SDK calls it, the OpenAPI
 * document and the fuzzer are generated from it.
 */
export const ENDPOINTS = [
  {
    number: 1,
    operationId: "uploadFile",
    summary: "Direct upload (multipart/form-data)",
    method: "POST",
    path: "/api/v1/uploads",
    key: "any",
    group: "upload",
    body: directUploadFieldsSchema,
    bodyContentType: "multipart/form-data",
    successStatus: 200,
    response: anyUploadResponseSchema,
    errors: [400, 403, 413, 415],
  },
  {
    number: 2,
    operationId: "uploadFromUrl",
    summary: "Remote-URL upload",
    method: "POST",
    path: "/api/v1/uploads/remote",
    key: "any",
    group: "upload",
    body: remoteUploadBodySchema,
    bodyContentType: "application/json",
    successStatus: 200,
    response: anyUploadResponseSchema,
    errors: [400, 403, 413, 415],
  },
  {
    number: 3,
    operationId: "startMultipartUpload",
    summary: "Start a multipart upload",
    method: "POST",
    path: "/api/v1/multipart/start",
    key: "any",
    group: "multipart",
    body: multipartStartBodySchema,
    bodyContentType: "application/json",
    successStatus: 200,
    response: multipartSessionSchema,
    errors: [400, 403, 413],
  },
  {
    number: 4,
    operationId: "uploadPart",
    summary: "Upload one part to its signed URL (Trove's part gateway in gateway mode)",
    method: "PUT",
    path: "/api/v1/multipart/parts/:sessionId/:partNumber",
    key: "none",
    group: "multipart",
    params: partUploadParamsSchema,
    bodyContentType: "application/octet-stream",
    successStatus: 200,
    response: partUploadResponseSchema,
    errors: [400],
  },
  {
    number: 5,
    operationId: "completeMultipartUpload",
    summary: "Complete a multipart upload",
    method: "POST",
    path: "/api/v1/multipart/complete",
    key: "any",
    group: "multipart",
    body: multipartCompleteBodySchema,
    bodyContentType: "application/json",
    successStatus: 200,
    response: multipartCompleteResponseSchema,
    errors: [400, 403, 404, 415],
  },
  {
    number: 6,
    operationId: "listFiles",
    summary: "List files",
    method: "GET",
    path: "/api/v1/files",
    key: "private",
    group: "files",
    query: listFilesQuerySchema,
    successStatus: 200,
    response: listFilesResponseSchema,
    errors: [400, 403],
  },
  {
    number: 7,
    operationId: "getFile",
    summary: "File details",
    method: "GET",
    path: "/api/v1/files/:fileNo",
    key: "private",
    group: "files",
    params: fileNoParamsSchema,
    successStatus: 200,
    response: fileDetailsResponseSchema,
    errors: [403, 404],
  },
  {
    number: 8,
    operationId: "renameFile",
    summary: "Rename a file",
    method: "PATCH",
    path: "/api/v1/files/:fileNo/rename",
    key: "private",
    group: "files",
    params: fileNoParamsSchema,
    body: renameFileBodySchema,
    bodyContentType: "application/json",
    successStatus: 200,
    response: fileRecordSchema,
    errors: [400, 403, 404, 409],
  },
  {
    number: 9,
    operationId: "deleteFile",
    summary: "Delete a file permanently",
    method: "DELETE",
    path: "/api/v1/files/:fileNo",
    key: "private",
    group: "files",
    params: fileNoParamsSchema,
    successStatus: 200,
    response: messageResponseSchema,
    errors: [403, 404],
  },
  {
    number: 10,
    operationId: "createFolder",
    summary: "Create a folder",
    method: "POST",
    path: "/api/v1/folders",
    key: "private",
    group: "folders",
    body: createFolderBodySchema,
    bodyContentType: "application/json",
    successStatus: 200,
    response: createFolderResponseSchema,
    errors: [400, 403, 404, 409],
  },
  {
    number: 11,
    operationId: "listFolders",
    summary: "List folders",
    method: "GET",
    path: "/api/v1/folders",
    key: "private",
    group: "folders",
    query: listFoldersQuerySchema,
    successStatus: 200,
    response: listFoldersResponseSchema,
    errors: [400, 403],
  },
  {
    number: 12,
    operationId: "renameFolder",
    summary: "Rename a folder",
    method: "POST",
    path: "/api/v1/folders/rename/:folderNo",
    key: "private",
    group: "folders",
    params: folderNoParamsSchema,
    body: renameFolderBodySchema,
    bodyContentType: "application/json",
    successStatus: 200,
    response: folderRecordSchema,
    errors: [400, 403, 404, 409],
  },
  {
    number: 13,
    operationId: "deleteFolder",
    summary: "Delete an empty folder",
    method: "DELETE",
    path: "/api/v1/folders/:folderNo",
    key: "private",
    group: "folders",
    params: folderNoParamsSchema,
    successStatus: 200,
    response: messageResponseSchema,
    errors: [403, 404, 409],
  },
  {
    number: 14,
    operationId: "createSource",
    summary: "Create a source",
    method: "POST",
    path: "/api/v1/sources",
    key: "private",
    group: "sources",
    body: createSourceBodySchema,
    bodyContentType: "application/json",
    successStatus: 201,
    response: sourceResponseSchema,
    errors: [400, 403, 409],
  },
  {
    number: 15,
    operationId: "listSources",
    summary: "List sources",
    method: "GET",
    path: "/api/v1/sources",
    key: "private",
    group: "sources",
    query: listSourcesQuerySchema,
    successStatus: 200,
    response: listSourcesResponseSchema,
    errors: [400, 403],
  },
  {
    number: 16,
    operationId: "getSource",
    summary: "Source details",
    method: "GET",
    path: "/api/v1/sources/:sourceId",
    key: "private",
    group: "sources",
    params: sourceIdParamsSchema,
    successStatus: 200,
    response: sourceResponseSchema,
    errors: [403, 404],
  },
  {
    number: 17,
    operationId: "updateSource",
    summary: "Update a source (configuration merged)",
    method: "PATCH",
    path: "/api/v1/sources/:sourceId",
    key: "private",
    group: "sources",
    params: sourceIdParamsSchema,
    body: updateSourceBodySchema,
    bodyContentType: "application/json",
    successStatus: 200,
    response: sourceResponseSchema,
    errors: [400, 403, 404, 409],
  },
  {
    number: 18,
    operationId: "deleteSource",
    summary: "Delete a source",
    method: "DELETE",
    path: "/api/v1/sources/:sourceId",
    key: "private",
    group: "sources",
    params: sourceIdParamsSchema,
    successStatus: 204,
    errors: [403, 404],
  },
  {
    // Trove's own, beyond the hosted service's 18: short-lived upload credentials for browsers.
    number: 19,
    operationId: "createUploadToken",
    summary: "Mint an upload token bound to an upload policy",
    method: "POST",
    path: "/api/v1/uploads/tokens",
    key: "private",
    group: "upload",
    body: createUploadTokenBodySchema,
    bodyContentType: "application/json",
    bodyOptional: true,
    successStatus: 200,
    response: uploadTokenResponseSchema,
    errors: [400, 403],
  },
  {
    // Trove's own: privacy of a stored file.
    number: 20,
    operationId: "updateFile",
    summary: "Make a file private or public",
    method: "PATCH",
    path: "/api/v1/files/:fileNo",
    key: "private",
    group: "files",
    params: fileNoParamsSchema,
    body: updateFileBodySchema,
    bodyContentType: "application/json",
    successStatus: 200,
    response: fileDetailsResponseSchema,
    errors: [400, 403, 404],
  },
  {
    // Trove's own: a signed delivery URL (the only way a private file is served).
    number: 21,
    operationId: "createSignedUrl",
    summary: "Sign a delivery URL of a file, optionally transformed",
    method: "POST",
    path: "/api/v1/files/:fileNo/signed-url",
    key: "private",
    group: "files",
    params: fileNoParamsSchema,
    body: signedUrlBodySchema,
    bodyContentType: "application/json",
    bodyOptional: true,
    successStatus: 200,
    response: signedUrlResponseSchema,
    errors: [400, 403, 404],
  },
] as const satisfies readonly EndpointDefinition[];

/** An entry of either registry: the public API (ENDPOINTS) or the admin API (ADMIN_ENDPOINTS). */
export type RegisteredEndpoint = (typeof ENDPOINTS)[number] | (typeof ADMIN_ENDPOINTS)[number];
export type EndpointOperationId = RegisteredEndpoint["operationId"];
export type EndpointOf<Op extends EndpointOperationId> = Extract<RegisteredEndpoint, { operationId: Op }>;

const BY_OPERATION = new Map<string, RegisteredEndpoint>(
  [...ENDPOINTS, ...ADMIN_ENDPOINTS].map((endpoint) => [endpoint.operationId, endpoint]),
);

/** The registry entry of an operation, public or admin (the server registers it, the SDK calls it). */
export function endpointOf<Op extends EndpointOperationId>(operationId: Op): EndpointOf<Op> {
  const endpoint = BY_OPERATION.get(operationId);
  if (!endpoint) throw new Error(`No endpoint ${operationId} in ENDPOINTS`);
  return endpoint as EndpointOf<Op>;
}
