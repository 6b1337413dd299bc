/**
 * The shape of an endpoint's entry in the registries (ENDPOINTS in ./endpoints.ts, ADMIN_ENDPOINTS
 * in ./admin-endpoints.ts): its own file so that both registries can name it without importing
 * each other.
 */
import type * as z from "zod";
import type { ErrorGroup } from "./error-groups.js";

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
