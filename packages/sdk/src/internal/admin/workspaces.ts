import type { AdminWorkspace } from "@trove/schema";
import { callEndpoint, type EndpointBody, type EndpointResponse } from "../call-endpoint.js";
import type { ApiClient } from "../request/index.js";
import type { RequestOptions } from "../resources/files.js";
import { paginate } from "../resources/paginate.js";

export type CreateWorkspaceBody = EndpointBody<"adminCreateWorkspace">;
export type UpdateWorkspaceBody = EndpointBody<"adminUpdateWorkspace">;
export type WorkspaceList = EndpointResponse<"adminListWorkspaces">;
export type DeletedWorkspace = EndpointResponse<"adminDeleteWorkspace">;

export interface ListWorkspacesQuery {
  /** From 1. Default 1. */
  page?: number;
  /** 1 to 100. Default 50. */
  limit?: number;
}

export interface DeleteWorkspaceOptions extends RequestOptions {
  /**
   * Delete a workspace that still holds files: it is disabled at once and a background job removes
   * its files (`status: "deleting"`). Without it such a workspace is refused with ConflictError
   * `WORKSPACE_NOT_EMPTY`.
   */
  force?: boolean;
}

export interface AdminWorkspacesResource {
  /** A new workspace; `workspace_no` (3 to 32 lowercase letters and digits) is random when unset. */
  create(body: CreateWorkspaceBody, options?: RequestOptions): Promise<AdminWorkspace>;
  /** One page, oldest first. */
  list(query?: ListWorkspacesQuery, options?: RequestOptions): Promise<WorkspaceList>;
  /** Every workspace, page after page (`for await`), from `query.page` (default 1) on. */
  listAll(
    query?: ListWorkspacesQuery,
    options?: RequestOptions,
  ): AsyncGenerator<AdminWorkspace, void, undefined>;
  get(workspaceNo: string, options?: RequestOptions): Promise<AdminWorkspace>;
  /** Rename, disable (`disabled: true`) or enable, switch strict transforms: at least one field. */
  update(
    workspaceNo: string,
    changes: UpdateWorkspaceBody,
    options?: RequestOptions,
  ): Promise<AdminWorkspace>;
  /** Its keys and upload tokens get 401 and its files are no longer served, until enabled again. */
  disable(workspaceNo: string, options?: RequestOptions): Promise<AdminWorkspace>;
  enable(workspaceNo: string, options?: RequestOptions): Promise<AdminWorkspace>;
  /** Refused (409 `WORKSPACE_NOT_EMPTY`) while it holds files, unless `force: true`. */
  delete(workspaceNo: string, options?: DeleteWorkspaceOptions): Promise<DeletedWorkspace>;
}

export function adminWorkspacesResource(client: ApiClient): AdminWorkspacesResource {
  const list = (query: ListWorkspacesQuery = {}, options: RequestOptions = {}) =>
    callEndpoint(client, "adminListWorkspaces", { query: { ...query }, signal: options.signal });
  const update = (workspaceNo: string, changes: UpdateWorkspaceBody, options: RequestOptions = {}) =>
    callEndpoint(client, "adminUpdateWorkspace", {
      params: { workspaceNo },
      json: changes,
      signal: options.signal,
    });
  return {
    create: (body, options = {}) =>
      callEndpoint(client, "adminCreateWorkspace", { json: body, signal: options.signal }),
    list,
    // The server answers a total, not a "has more" flag: another page exists while the rows seen
    // so far fall short of it.
    listAll: (query = {}, options = {}) =>
      paginate(
        (page) => list({ ...query, page }, options),
        (page) => page.workspaces,
        (page) => page.page * page.limit < page.total,
        Number(query.page ?? 1),
      ),
    get: (workspaceNo, options = {}) =>
      callEndpoint(client, "adminGetWorkspace", { params: { workspaceNo }, signal: options.signal }),
    update,
    disable: (workspaceNo, options) => update(workspaceNo, { disabled: true }, options),
    enable: (workspaceNo, options) => update(workspaceNo, { disabled: false }, options),
    delete: (workspaceNo, options = {}) =>
      callEndpoint(client, "adminDeleteWorkspace", {
        params: { workspaceNo },
        query: { force: options.force === undefined ? undefined : String(options.force) },
        signal: options.signal,
      }),
  };
}
