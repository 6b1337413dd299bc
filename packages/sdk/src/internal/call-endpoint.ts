import { type ENDPOINTS, type EndpointOf, endpointOf } from "@trove/schema";
import type { ClientContext } from "./client/client-context.js";
import { invalidArgument } from "./invalid-argument.js";
import {
  type ApiCall,
  callApi,
  parseResponse,
  type QueryValue,
  type ResponseSchema,
} from "./request/index.js";
import { withIssueText } from "./zod-issues.js";

type Endpoint = (typeof ENDPOINTS)[number];
export type OperationId = Endpoint["operationId"];

/** The parsed response of an operation, from its zod schema in the registry (undefined for 204). */
export type EndpointResponse<Op extends OperationId> =
  EndpointOf<Op> extends { response: ResponseSchema<infer T> } ? T : undefined;

export interface EndpointCall {
  params?: Record<string, string>;
  query?: Record<string, QueryValue> | undefined;
  json?: unknown;
  signal?: AbortSignal | undefined;
}

/**
 * Calls an endpoint of the @trove/schema registry: method, path and response schema come from
 * there, so the SDK and the server cannot disagree about them.
 */
export async function callEndpoint<Op extends OperationId>(
  ctx: ClientContext,
  operationId: Op,
  call: EndpointCall = {},
): Promise<EndpointResponse<Op>> {
  const endpoint: Endpoint = endpointOf(operationId);
  const request: ApiCall = {
    method: endpoint.method,
    path: fillPath(endpoint.path, call.params ?? {}),
    query: call.query,
    json: call.json,
    signal: call.signal,
  };
  const response = await callApi(ctx, request);
  if (!("response" in endpoint)) return undefined as EndpointResponse<Op>;
  const schema = withIssueText(endpoint.response as ResponseSchema<EndpointResponse<Op>>);
  return parseResponse(schema, response, operationId);
}

/** `/api/v1/files/:fileNo` + `{ fileNo: "12" }` → `/api/v1/files/12`, each value encoded. */
function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== "string" || value === "") throw invalidArgument(`${name} is required`);
    return encodeURIComponent(value);
  });
}
