/**
 * API routes registered from the endpoint registry of @trove/schema (`ENDPOINTS`, the route
 * table's entries with their schemas): method, path, key requirement, error group, success status
 * and the zod schemas of params, query, JSON body and response all come from the registry entry,
 * so a route file holds only the handler.
 *
 *   registerEndpoint(app, "getFile", async (request) => {
 *     // request.params, request.query and request.body are the schemas' parsed output
 *     return { success: true, data: ... };          // checked against the response schema
 *   });
 *
 * Request validation runs before the handler (after the auth hook, so an unauthenticated request
 * is a 401 whatever its body). A failure is the group's envelope: a bad path parameter is the
 * group's 404 (it cannot name anything), anything else a 400 listing the zod issues; a route
 * whose spec fixes other bodies maps the issues itself with `invalidRequest`. Bodies that are not
 * JSON (multipart form data, part bytes) are read by the handler and have no body schema here;
 * an endpoint whose body is optional (`bodyOptional`) validates a missing body as `{}`.
 *
 * Responses are serialized through the response schema: a body that breaks the contract is a 500
 * in the server's log, never a silently different wire.
 */
import {
  type EndpointOf,
  type EndpointOperationId,
  endpointOf,
  type RegisteredEndpoint,
} from "@trove/schema";
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type * as z from "zod";
import { HttpError } from "../errors/http-error.js";

type Part<E, K extends string> = E extends { readonly [P in K]: infer S extends z.ZodType }
  ? z.output<S>
  : unknown;
/** The response a handler returns: the schema's input, or the reply it sent itself. */
type HandlerResult<E> = E extends { readonly response: infer S extends z.ZodType }
  ? z.input<S> | FastifyReply
  : FastifyReply | undefined;

export type EndpointRequest<Op extends EndpointOperationId> = FastifyRequest<{
  Params: Part<EndpointOf<Op>, "params">;
  Querystring: Part<EndpointOf<Op>, "query">;
  Body: EndpointOf<Op> extends { bodyContentType: "application/json" }
    ? Part<EndpointOf<Op>, "body">
    : unknown;
}>;

export type EndpointHandler<Op extends EndpointOperationId> = (
  request: EndpointRequest<Op>,
  reply: FastifyReply,
) => Promise<HandlerResult<EndpointOf<Op>>>;

export interface EndpointOptions {
  /** Route config beyond what the registry says (error variant, body drain, ...). */
  config?: Omit<FastifyContextConfig, "auth" | "errorGroup" | "operationId">;
  /**
   * The error for a request that fails its schemas, where the spec fixes a body of its own.
   * `part` says which schema failed; `request.body` etc. are still as received.
   */
  invalidRequest?: InvalidRequestMapper;
  /**
   * Runs before the schemas: refusals the spec orders before field errors (a wrong Content-Type,
   * a policy that forbids the whole request) and normalising what a form sends (blank fields).
   */
  beforeValidation?: (request: FastifyRequest) => void;
  bodyLimit?: number;
}

export type InvalidRequestMapper = (
  part: RequestPart,
  issues: z.core.$ZodIssue[],
  request: FastifyRequest,
) => HttpError | undefined;

export type RequestPart = "params" | "querystring" | "body";

/** A validation failure as the error plugin receives it: zod's issues and which part failed. */
export class RequestValidationError extends Error {
  override name = "RequestValidationError";
  /** Fastify sets this to the failing part. */
  validationContext?: string;
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super("request validation failed");
  }
}

/** Validates with the route's zod schema and keeps the issues for the error plugin. */
const validatorCompiler: FastifySchemaCompiler<FastifySchema> =
  ({ schema }) =>
  (data) => {
    // Every schema registerEndpoint hands Fastify is a zod schema from the registry.
    const result = (schema as z.ZodType).safeParse(data);
    return result.success
      ? { value: result.data }
      : { error: new RequestValidationError(result.error.issues) };
  };

/**
 * Serializes what the response schema parses out of the handler's result: fields the schema does
 * not declare are dropped, and a result that does not match is a server bug (a 500, logged).
 * Parse rather than zod's encode: some response schemas normalise with one-way transforms (a
 * folder path), which encode refuses.
 */
function serializerCompiler({ schema }: { schema: unknown }): (data: unknown) => string {
  const responseSchema = schema as z.ZodType;
  return (data) => {
    const result = responseSchema.safeParse(data);
    // Not the ZodError itself: the error plugin answers those with a 400, and this is our fault.
    if (!result.success) throw new ResponseContractError(result.error.issues);
    return JSON.stringify(result.data);
  };
}

/** A handler's result that does not match its endpoint's response schema: a 500, logged. */
export class ResponseContractError extends Error {
  override name = "ResponseContractError";
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super(`response does not match its schema: ${issues.map((issue) => issue.path.join(".")).join(", ")}`);
  }
}

/** The 400 of a JSON endpoint called without a body, or with one that is not an object. */
export const BODY_NOT_OBJECT_MESSAGE = "Request body must be a JSON object";

/** Whether a parsed JSON body is an object (not an array, a string or null). */
export function isJsonObject(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

/** Registers the registry's endpoint `operationId` on `app` (a plugin scope) with `handler`. */
export function registerEndpoint<Op extends EndpointOperationId>(
  app: FastifyInstance,
  operationId: Op,
  handler: EndpointHandler<Op>,
  options: EndpointOptions = {},
): void {
  const endpoint: RegisteredEndpoint = endpointOf(operationId);
  const schema: FastifySchema = {};
  if ("params" in endpoint) schema.params = endpoint.params;
  if ("query" in endpoint) schema.querystring = endpoint.query;
  const jsonBody = "body" in endpoint && endpoint.bodyContentType === "application/json";
  if (jsonBody) schema.body = endpoint.body;
  if ("response" in endpoint) schema.response = { [endpoint.successStatus]: endpoint.response };

  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    schema,
    validatorCompiler,
    serializerCompiler,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    config: {
      ...options.config,
      auth: endpoint.key,
      // The error plugin reads the envelope group here (src/plugins/errors.ts), not from the URL.
      errorGroup: endpoint.group,
      operationId,
      ...(options.invalidRequest ? { invalidRequest: options.invalidRequest } : {}),
    },
    // The callback form: it does no I/O, and an async hook costs a promise on every request.
    preValidation: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      try {
        options.beforeValidation?.(request);
        if (jsonBody && (request.body === undefined || request.body === null)) {
          // The registry says the body may be omitted: validate it as `{}`.
          if ("bodyOptional" in endpoint) request.body = {};
          else throw new HttpError(400, BODY_NOT_OBJECT_MESSAGE);
        }
      } catch (error) {
        done(error as Error);
        return;
      }
      done();
    },
    handler: async (request, reply) => {
      reply.status(endpoint.successStatus);
      return handler(request as unknown as EndpointRequest<Op>, reply);
    },
  });
}
