import * as z from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponsesObject } from "zod-openapi";
import type { EndpointDefinition } from "../endpoints.js";
import { errorResponsesOf } from "./error-responses.js";
import { requestBodyOf, requestParamsOf } from "./request.js";
import { securityFor } from "./servers.js";

const KEY_NOTES = {
  any: "Accepts a public or a private API key.",
  private: "Requires a private API key; a public key gets 403.",
  admin:
    "Requires the server's admin token (`Authorization: Bearer <TROVE_ADMIN_TOKEN>`); a workspace key gets 401. " +
    "A server without an admin token answers 404.",
} as const;

/** Endpoint 4 lives on the part gateway, and in direct mode is not Trove's at all. */
const PART_UPLOAD_NOTE =
  "Send each part to the URL in `parts[i]` of the multipart session, in full with its query string, " +
  "with `Content-Type: application/octet-stream` and no API key. This path is Trove's part gateway " +
  "(the default mode), which checks the URL's HMAC signature and expiry. In direct S3 mode the URL is " +
  "a presigned storage URL instead: storage answers 200 with an `ETag` header, and its error bodies are storage's own.";

const etagHeaders = z.object({
  ETag: z.string().meta({ description: "Entity tag of the stored part" }).optional(),
});

function successResponseOf(endpoint: EndpointDefinition): ZodOpenApiResponsesObject {
  const status = String(endpoint.successStatus) as `${2}${string}`;
  if (!endpoint.response) return { [status]: { description: "Done; no content" } };
  return {
    [status]: {
      description:
        endpoint.successStatus === 201 ? "Created" : endpoint.successStatus === 202 ? "Accepted" : "OK",
      ...(endpoint.key === "none" ? { headers: etagHeaders } : {}),
      content: { "application/json": { schema: endpoint.response } },
    },
  };
}

/** The OpenAPI operation of one ENDPOINTS entry. */
export function operationOf(endpoint: EndpointDefinition): ZodOpenApiOperationObject {
  const requestParams = requestParamsOf(endpoint);
  const requestBody = requestBodyOf(endpoint);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.key === "none" ? PART_UPLOAD_NOTE : KEY_NOTES[endpoint.key],
    tags: [endpoint.group],
    "x-endpoint-number": endpoint.number,
    security: securityFor(endpoint.key),
    ...(requestParams ? { requestParams } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { ...successResponseOf(endpoint), ...errorResponsesOf(endpoint) },
  };
}
