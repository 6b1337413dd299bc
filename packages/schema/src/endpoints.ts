import { ADMIN_ENDPOINTS } from "./admin-endpoints.js";
import { messageResponseSchema } from "./common.js";
import type { EndpointDefinition } from "./endpoint-definition.js";
import { moveFilesBodySchema, moveFilesResponseSchema } from "./file-move.js";
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
  multipartAbortResponseSchema,
  multipartCompleteBodySchema,
  multipartCompleteResponseSchema,
  multipartSessionParamsSchema,
  multipartSessionSchema,
  multipartStartBodySchema,
  partUploadParamsSchema,
  partUploadResponseSchema,
} from "./multipart.js";
import { routeOf } from "./route-table.js";
import { sourceTestResponseSchema } from "./source-test.js";
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
import { usageQuerySchema, usageResponseSchema } from "./usage.js";

export type { EndpointDefinition, HttpMethod, KeyRequirement } from "./endpoint-definition.js";

/**
 * Every endpoint of the spec, with the schemas of its request and response. The server registers
 * its routes from it (apps/server/src/routes/endpoint-route.ts), the SDK calls it, the OpenAPI
 * document and the fuzzer are generated from it.
 */
export const ENDPOINTS = [
  {
    ...routeOf("uploadFile"),
    summary: "Direct upload (multipart/form-data)",
    body: directUploadFieldsSchema,
    response: anyUploadResponseSchema,
    errors: [400, 403, 413, 415],
  },
  {
    ...routeOf("uploadFromUrl"),
    summary: "Remote-URL upload",
    body: remoteUploadBodySchema,
    response: anyUploadResponseSchema,
    errors: [400, 403, 413, 415],
  },
  {
    ...routeOf("startMultipartUpload"),
    summary: "Start a multipart upload",
    body: multipartStartBodySchema,
    response: multipartSessionSchema,
    errors: [400, 403, 413],
  },
  {
    ...routeOf("uploadPart"),
    summary: "Upload one part to its signed URL (Trove's part gateway in gateway mode)",
    params: partUploadParamsSchema,
    response: partUploadResponseSchema,
    errors: [400],
  },
  {
    ...routeOf("completeMultipartUpload"),
    summary: "Complete a multipart upload",
    body: multipartCompleteBodySchema,
    response: multipartCompleteResponseSchema,
    errors: [400, 403, 404, 415],
  },
  {
    ...routeOf("listFiles"),
    summary: "List files",
    query: listFilesQuerySchema,
    response: listFilesResponseSchema,
    errors: [400, 403],
  },
  {
    ...routeOf("getFile"),
    summary: "File details",
    params: fileNoParamsSchema,
    response: fileDetailsResponseSchema,
    errors: [403, 404],
  },
  {
    ...routeOf("renameFile"),
    summary: "Rename a file",
    params: fileNoParamsSchema,
    body: renameFileBodySchema,
    response: fileRecordSchema,
    errors: [400, 403, 404, 409],
  },
  {
    ...routeOf("deleteFile"),
    summary: "Delete a file permanently",
    params: fileNoParamsSchema,
    response: messageResponseSchema,
    errors: [403, 404],
  },
  {
    ...routeOf("createFolder"),
    summary: "Create a folder",
    body: createFolderBodySchema,
    response: createFolderResponseSchema,
    errors: [400, 403, 404, 409],
  },
  {
    ...routeOf("listFolders"),
    summary: "List folders",
    query: listFoldersQuerySchema,
    response: listFoldersResponseSchema,
    errors: [400, 403],
  },
  {
    ...routeOf("renameFolder"),
    summary: "Rename a folder",
    params: folderNoParamsSchema,
    body: renameFolderBodySchema,
    response: folderRecordSchema,
    errors: [400, 403, 404, 409],
  },
  {
    ...routeOf("deleteFolder"),
    summary: "Delete an empty folder",
    params: folderNoParamsSchema,
    response: messageResponseSchema,
    errors: [403, 404, 409],
  },
  {
    ...routeOf("createSource"),
    summary: "Create a source",
    body: createSourceBodySchema,
    response: sourceResponseSchema,
    errors: [400, 403, 409],
  },
  {
    ...routeOf("listSources"),
    summary: "List sources",
    query: listSourcesQuerySchema,
    response: listSourcesResponseSchema,
    errors: [400, 403],
  },
  {
    ...routeOf("getSource"),
    summary: "Source details",
    params: sourceIdParamsSchema,
    response: sourceResponseSchema,
    errors: [403, 404],
  },
  {
    ...routeOf("updateSource"),
    summary: "Update a source (configuration merged)",
    params: sourceIdParamsSchema,
    body: updateSourceBodySchema,
    response: sourceResponseSchema,
    errors: [400, 403, 404, 409],
  },
  {
    ...routeOf("deleteSource"),
    summary: "Delete a source",
    params: sourceIdParamsSchema,
    errors: [403, 404],
  },
  {
    // Trove's own, beyond the hosted service's 18: short-lived upload credentials for browsers.
    ...routeOf("createUploadToken"),
    summary: "Mint an upload token bound to an upload policy",
    body: createUploadTokenBodySchema,
    response: uploadTokenResponseSchema,
    errors: [400, 403],
  },
  {
    // Trove's own: privacy of a stored file.
    ...routeOf("updateFile"),
    summary: "Make a file private or public",
    params: fileNoParamsSchema,
    body: updateFileBodySchema,
    response: fileDetailsResponseSchema,
    errors: [400, 403, 404],
  },
  {
    // Trove's own: a signed delivery URL (the only way a private file is served).
    ...routeOf("createSignedUrl"),
    summary: "Sign a delivery URL of a file, optionally transformed",
    params: fileNoParamsSchema,
    body: signedUrlBodySchema,
    response: signedUrlResponseSchema,
    errors: [400, 403, 404],
  },
  {
    // Trove's own: abandon a multipart session (its staged parts removed, a token's count given back).
    ...routeOf("abortMultipartUpload"),
    summary: "Abandon a multipart upload and remove its staged parts",
    params: multipartSessionParamsSchema,
    response: multipartAbortResponseSchema,
    errors: [403, 404, 409],
  },
  {
    ...routeOf("getUsage"),
    summary: "What the workspace stores, its quotas, and what delivery served per day",
    query: usageQuerySchema,
    response: usageResponseSchema,
    errors: [400, 403],
  },
  {
    ...routeOf("moveFiles"),
    summary:
      "Move files to a folder or the root, all or none (their storage stays; URLs follow the new path)",
    body: moveFilesBodySchema,
    response: moveFilesResponseSchema,
    errors: [400, 403, 404, 409],
  },
  {
    ...routeOf("testSource"),
    summary: "Try a source's origin with its stored credentials, through the SSRF-guarded fetch",
    params: sourceIdParamsSchema,
    response: sourceTestResponseSchema,
    errors: [403, 404],
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
