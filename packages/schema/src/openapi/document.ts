import { createDocument, type oas31, type ZodOpenApiPathsObject } from "zod-openapi";
import { ADMIN_ENDPOINTS } from "../admin-endpoints.js";
import { ENDPOINTS, type EndpointDefinition } from "../endpoints.js";
import { COMPONENT_SCHEMAS } from "./component-schemas.js";
import { operationOf } from "./operation.js";
import { toOpenApiPath } from "./paths.js";
import { GATEWAY_SERVERS, OPENAPI_SERVERS, SECURITY_SCHEMES } from "./servers.js";

export const OPENAPI_TITLE = "Trove Media API";
export const OPENAPI_VERSION = "1.0.0";

const TAGS: oas31.TagObject[] = [
  { name: "upload", description: "Direct and remote-URL upload" },
  { name: "multipart", description: "Multipart (chunked) upload" },
  { name: "files", description: "Files: list, read, rename, delete" },
  { name: "folders", description: "Folders: create, list, rename, delete" },
  { name: "sources", description: "Sources: configured external origins" },
  {
    name: "admin",
    description:
      "Administration (off unless the server has TROVE_ADMIN_TOKEN): workspaces, API keys, webhook secret and endpoints, named transforms",
  },
];

function pathsOf(endpoints: readonly EndpointDefinition[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const endpoint of endpoints) {
    const path = toOpenApiPath(endpoint.path);
    const item = paths[path] ?? {};
    paths[path] = item;
    // The part gateway is its own host (the API process by default).
    if (endpoint.key === "none") item.servers = structuredClone(GATEWAY_SERVERS);
    const method = endpoint.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
    if (item[method]) throw new Error(`Duplicate operation ${endpoint.method} ${path}`);
    item[method] = operationOf(endpoint);
  }
  return paths;
}

/**
 * The OpenAPI 3.1 document of the Trove API, generated from ENDPOINTS: request schemas in their
 * input form, responses in their output form, every documented error with its group's envelope.
 * Each call returns a fresh document that shares no objects with another.
 */
export function createOpenApiDocument(): oas31.OpenAPIObject {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: OPENAPI_TITLE,
      version: OPENAPI_VERSION,
      description:
        "Media asset management: upload (direct, remote URL, multipart), files, folders and sources. " +
        "Authenticate with `x-api-key: <API_KEY>` or `Authorization: Bearer <API_KEY>`; public keys may only upload. " +
        "The admin API (`/admin/v1`) takes the server's admin token instead: `Authorization: Bearer <TROVE_ADMIN_TOKEN>`. " +
        "Resumable uploads also speak tus 1.0.0 at `/api/v1/tus` (creation, creation-with-upload, termination, expiration; " +
        "the same keys; the upload's fields in `Upload-Metadata`; the file in the `Trove-File-No` and `Trove-File-Url` headers): " +
        'a header protocol, described in the server\'s README (section "tus") rather than here.',
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: structuredClone(OPENAPI_SERVERS),
    tags: structuredClone(TAGS),
    paths: pathsOf([...ENDPOINTS, ...ADMIN_ENDPOINTS]),
    components: {
      schemas: COMPONENT_SCHEMAS,
      securitySchemes: structuredClone(SECURITY_SCHEMES),
    },
  });
}
