/**
 * The shape of an endpoint's entry in the registries (ENDPOINTS in ./endpoints.ts, ADMIN_ENDPOINTS
 * in ./admin-endpoints.ts): the route table's entry (./route-table.ts) with the schemas of its
 * request and response and what the OpenAPI document says of it. Its own file so that both
 * registries can name it without importing each other.
 */
import type * as z from "zod";
import type { RouteEntry } from "./route-table.js";

export type { HttpMethod, KeyRequirement } from "./route-table.js";

export interface EndpointDefinition extends RouteEntry {
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** Undefined for a response without a body (204). */
  readonly response?: z.ZodType;
  /** Error statuses this endpoint documents, besides 401/429/500 which every keyed endpoint has. */
  readonly errors: readonly number[];
}
