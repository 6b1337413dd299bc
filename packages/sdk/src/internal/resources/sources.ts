import type {
  CreateSourceBodyInput,
  ListSourcesQueryInput,
  ListSourcesResponse,
  Source,
  SourceTestResult,
  UpdateSourceBody,
} from "@trove/schema";
import { callEndpoint } from "../call-endpoint.js";
import type { ClientContext } from "../client/client-context.js";
import type { RequestOptions } from "./files.js";
import { paginate } from "./paginate.js";

export type ListSourcesQuery = Omit<ListSourcesQueryInput, "page" | "limit"> & {
  page?: number;
  limit?: number;
};

export interface SourcesResource {
  create(body: CreateSourceBodyInput, options?: RequestOptions): Promise<Source>;
  /** One page. */
  list(query?: ListSourcesQuery, options?: RequestOptions): Promise<ListSourcesResponse>;
  /** Every source, page after page (`for await`). */
  listAll(query?: ListSourcesQuery, options?: RequestOptions): AsyncGenerator<Source, void, undefined>;
  get(sourceId: string, options?: RequestOptions): Promise<Source>;
  /** Configuration fields are merged; a masked secret sent back unchanged keeps the stored one. */
  update(sourceId: string, body: UpdateSourceBody, options?: RequestOptions): Promise<Source>;
  delete(sourceId: string, options?: RequestOptions): Promise<void>;
  /**
   * Tries the source's origin with its stored credentials, as deliveries would (SSRF guard and
   * deadline included): `ok`, the origin's HTTP `status` (null when it answered nothing), a
   * secret-free `message` when not ok, and `elapsed_ms`. A failing origin is a result, not an error.
   */
  test(sourceId: string, options?: RequestOptions): Promise<SourceTestResult>;
}

export function sourcesResource(ctx: ClientContext): SourcesResource {
  const list = (query: ListSourcesQuery = {}, options: RequestOptions = {}) =>
    callEndpoint(ctx, "listSources", { query: { ...query }, signal: options.signal });
  return {
    create: async (body, options = {}) =>
      (await callEndpoint(ctx, "createSource", { json: body, signal: options.signal })).data,
    list,
    listAll: (query = {}, options = {}) =>
      paginate(
        (page) => list({ ...query, page }, options),
        (page) => page.sources,
        (page) => page.meta.hasMore,
        Number(query.page ?? 1),
      ),
    get: async (sourceId, options = {}) =>
      (await callEndpoint(ctx, "getSource", { params: { sourceId }, signal: options.signal })).data,
    update: async (sourceId, body, options = {}) =>
      (await callEndpoint(ctx, "updateSource", { params: { sourceId }, json: body, signal: options.signal }))
        .data,
    delete: async (sourceId, options = {}) => {
      await callEndpoint(ctx, "deleteSource", { params: { sourceId }, signal: options.signal });
    },
    test: async (sourceId, options = {}) =>
      (await callEndpoint(ctx, "testSource", { params: { sourceId }, signal: options.signal })).data,
  };
}
