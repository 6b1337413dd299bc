import type { Usage } from "@trove/schema";
import { callEndpoint } from "../call-endpoint.js";
import type { ClientContext } from "../client/client-context.js";
import type { RequestOptions } from "./files.js";

export type { Usage, UsageDay } from "@trove/schema";

export interface UsageQuery {
  /** Days back, today (UTC) included: 1..90, default 30. */
  days?: number;
}

export interface UsageResource {
  /**
   * What the workspace stores (files, bytes of originals, variants, video outputs and cached
   * origin copies), its quotas (null: unlimited) and what the delivery host served it on each
   * of the last `days` UTC days (default 30, at most 90), oldest first. Private key only.
   */
  get(query?: UsageQuery, options?: RequestOptions): Promise<Usage>;
}

export function usageResource(ctx: ClientContext): UsageResource {
  return {
    get: async (query = {}, options = {}) =>
      (await callEndpoint(ctx, "getUsage", { query: { ...query }, signal: options.signal })).data,
  };
}
