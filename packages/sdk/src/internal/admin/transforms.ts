import { callEndpoint, type EndpointResponse } from "../call-endpoint.js";
import type { ApiClient } from "../request/index.js";
import type { RequestOptions } from "../resources/files.js";

export type NamedTransform = EndpointResponse<"adminSetNamedTransform">;

export interface AdminTransformsResource {
  list(workspaceNo: string, options?: RequestOptions): Promise<NamedTransform[]>;
  /**
   * Creates or replaces `t_<name>` (`"card"` and `"t_card"` name the same one) as `transform`,
   * e.g. `"w_400,h_300,c_fill"`; the answer holds its canonical form.
   */
  set(
    workspaceNo: string,
    name: string,
    transform: string,
    options?: RequestOptions,
  ): Promise<NamedTransform>;
  remove(workspaceNo: string, name: string, options?: RequestOptions): Promise<void>;
}

export function adminTransformsResource(client: ApiClient): AdminTransformsResource {
  return {
    list: async (workspaceNo, options = {}) =>
      (
        await callEndpoint(client, "adminListNamedTransforms", {
          params: { workspaceNo },
          signal: options.signal,
        })
      ).transforms,
    set: (workspaceNo, name, transform, options = {}) =>
      callEndpoint(client, "adminSetNamedTransform", {
        params: { workspaceNo, name },
        json: { transform },
        signal: options.signal,
      }),
    remove: async (workspaceNo, name, options = {}) => {
      await callEndpoint(client, "adminDeleteNamedTransform", {
        params: { workspaceNo, name },
        signal: options.signal,
      });
    },
  };
}
