import * as z from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiParameters } from "zod-openapi";
import type { EndpointDefinition, EndpointOperationId } from "../endpoints.js";
import {
  azureConfigurationSchema,
  createSourceBodySchema,
  googleCloudConfigurationSchema,
  imageSourceConfigurationSchema,
  s3ConfigurationSchema,
} from "../sources.js";
import { directUploadFieldsSchema } from "../uploads.js";
import { pathParamNames } from "./paths.js";

/**
 * Endpoint 1's form: the text fields plus the binary `file` part, which the server streams
 * instead of validating with the fields schema.
 */
export const directUploadFormSchema = directUploadFieldsSchema.extend({
  file: z.file().meta({ description: "The file's bytes" }),
});

/**
 * Endpoint 14 checks `configuration` against `type` inside a transform, which JSON Schema
 * cannot see. The document shows what that check accepts: one shape per type, built from the
 * same configuration schemas.
 */
const sourceBody = createSourceBodySchema.in;
export const createSourceRequestSchema = z.discriminatedUnion("type", [
  sourceBody.extend({ type: z.literal("s3"), configuration: s3ConfigurationSchema }),
  sourceBody.extend({ type: z.literal("azure"), configuration: azureConfigurationSchema }),
  sourceBody.extend({ type: z.literal("google_cloud"), configuration: googleCloudConfigurationSchema }),
  sourceBody.extend({ type: z.literal("image_source"), configuration: imageSourceConfigurationSchema }),
]);

/** The schema the document shows for an endpoint's body, when it differs from the one that validates. */
const DOCUMENTED_BODIES: Partial<Record<EndpointOperationId, z.ZodType>> = {
  uploadFile: directUploadFormSchema,
  createSource: createSourceRequestSchema,
};

const BINARY_BODY = {
  type: "string",
  format: "binary",
  contentMediaType: "application/octet-stream",
} as const;

/** Path and query parameters. Every `:param` of the path must be covered by the params schema. */
export function requestParamsOf(endpoint: EndpointDefinition): ZodOpenApiParameters | undefined {
  const names = pathParamNames(endpoint.path);
  const declared = endpoint.params instanceof z.ZodObject ? Object.keys(endpoint.params.shape) : [];
  const missing = names.filter((name) => !declared.includes(name));
  if (missing.length > 0) {
    throw new Error(`${endpoint.operationId}: path parameters without a schema: ${missing.join(", ")}`);
  }
  if (!endpoint.params && !endpoint.query) return undefined;
  return {
    ...(endpoint.params ? { path: endpoint.params as z.ZodObject } : {}),
    ...(endpoint.query ? { query: endpoint.query as z.ZodObject } : {}),
  };
}

export function requestBodyOf(endpoint: EndpointDefinition): ZodOpenApiOperationObject["requestBody"] {
  if (!endpoint.bodyContentType) return undefined;
  if (endpoint.bodyContentType === "application/octet-stream") {
    return {
      required: true,
      description: "The part's raw bytes: `part_size` bytes, except the last part, which may be shorter",
      content: { "application/octet-stream": { schema: BINARY_BODY } },
    };
  }
  const schema = DOCUMENTED_BODIES[endpoint.operationId as EndpointOperationId] ?? endpoint.body;
  if (!schema) return undefined;
  return {
    required: endpoint.bodyOptional !== true,
    content: { [endpoint.bodyContentType]: { schema } },
  };
}
