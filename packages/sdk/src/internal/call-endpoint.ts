import {
  type EndpointOf,
  type EndpointOperationId,
  endpointOf,
  type RegisteredEndpoint,
} from "@trove/schema";
import { invalidArgument } from "./invalid-argument.js";
import {
  type ApiCall,
  type ApiClient,
  callApi,
  parseResponse,
  type QueryValue,
  type ResponseSchema,
} from "./request/index.js";
import { withIssueText } from "./zod-issues.js";

/** An operation of the public API or of the admin API. */
export type OperationId = EndpointOperationId;

/** The parsed response of an operation, from its zod schema in the registry (undefined for 204). */
export type EndpointResponse<Op extends OperationId> =
  EndpointOf<Op> extends { response: ResponseSchema<infer T> } ? T : undefined;

/**
 * The JSON body an operation takes: its zod schema's input type (fields with defaults optional),
 * read through the Standard Schema types every zod schema carries, so the SDK needs no zod types.
 */
export type EndpointBody<Op extends OperationId> =
  EndpointOf<Op> extends { body: { "~standard": { types?: infer Types } } }
    ? NonNullable<Types> extends { input: infer Input }
      ? Input
      : never
    : undefined;

export interface EndpointCall {
  params?: Record<string, string>;
  query?: Record<string, QueryValue> | undefined;
  json?: unknown;
  signal?: AbortSignal | undefined;
}

/**
 * Calls an endpoint of the @trove/schema registry: method, path and response schema come from
 * there, so the SDK and the server cannot disagree about them. `client` is a client's context: its
 * engine sends the key the way its API wants it (x-api-key, or the admin token as a bearer token).
 */
export async function callEndpoint<Op extends OperationId>(
  client: ApiClient,
  operationId: Op,
  call: EndpointCall = {},
): Promise<EndpointResponse<Op>> {
  const endpoint: RegisteredEndpoint = endpointOf(operationId);
  const request: ApiCall = {
    method: endpoint.method,
    path: fillPath(endpoint.path, call.params ?? {}),
    query: call.query,
    json: call.json,
    signal: call.signal,
  };
  const response = await callApi(client, request);
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
