import * as z from "zod";
import type { ZodOpenApiResponseObject } from "zod-openapi";
import type { EndpointDefinition, EndpointOperationId } from "../endpoints.js";
import { errorShapeFor } from "../error-shapes.js";

/** Statuses every keyed endpoint can answer with, besides those it lists. */
export const KEYED_ERROR_STATUSES = [401, 429, 500, 503] as const;
/** What any endpoint can answer, keyed or not: a bug, or the database or storage out of reach. */
const SERVER_ERROR_STATUSES = [500, 503] as const;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request",
  401: "Missing or invalid API key",
  403: "A public key was used on a private-key endpoint",
  404: "Not found",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  429: "Rate limit exceeded; retry after `retryAfterSeconds`",
  500: "Unexpected server failure",
  503: "The database or storage is briefly out of reach; retry after `Retry-After` seconds",
};

/** Endpoints whose group answers one status with a shape of their own (see errorShapeFor). */
const ERROR_VARIANTS: Partial<Record<EndpointOperationId, "folder-create" | "rename">> = {
  createFolder: "folder-create",
  renameFile: "rename",
};

const retryAfterHeaders = z.object({
  "Retry-After": z.int().min(0).meta({ description: "Seconds to wait before retrying" }).optional(),
});

/**
 * Every error status an endpoint documents: its own list, plus 401, 429, 500 and 503 when it
 * takes a key and 403 when the key must be private. An unkeyed endpoint can still fail with 500
 * and 503.
 */
export function errorStatusesOf(endpoint: EndpointDefinition): number[] {
  const statuses = new Set<number>(endpoint.errors);
  if (endpoint.key === "none") for (const status of SERVER_ERROR_STATUSES) statuses.add(status);
  else for (const status of KEYED_ERROR_STATUSES) statuses.add(status);
  if (endpoint.key === "private") statuses.add(403);
  return [...statuses].sort((a, b) => a - b);
}

/** The error responses of an endpoint, each with its group's envelope for that status. */
export function errorResponsesOf(endpoint: EndpointDefinition): Record<string, ZodOpenApiResponseObject> {
  const variant = ERROR_VARIANTS[endpoint.operationId as EndpointOperationId];
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const status of errorStatusesOf(endpoint)) {
    responses[String(status)] = {
      description: ERROR_DESCRIPTIONS[status] ?? "Error",
      ...(status === 429 || status === 503 ? { headers: retryAfterHeaders } : {}),
      content: { "application/json": { schema: errorShapeFor(endpoint.group, status, variant) } },
    };
  }
  return responses;
}
