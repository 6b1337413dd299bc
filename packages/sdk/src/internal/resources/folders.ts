import type {
  CreateFolderBody,
  CreateFolderResponse,
  FolderRecord,
  ListFoldersQuery,
  ListFoldersResponse,
  MessageResponse,
} from "@trove/schema";
import { callEndpoint } from "../call-endpoint.js";
import type { ClientContext } from "../client/client-context.js";
import type { RequestOptions } from "./files.js";

export interface FoldersResource {
  /** `parent_folder_no` omitted: a root folder. */
  create(body: CreateFolderBody, options?: RequestOptions): Promise<CreateFolderResponse>;
  /** Direct children of `parent_folder_no` (root folders when omitted). */
  list(query?: ListFoldersQuery, options?: RequestOptions): Promise<ListFoldersResponse>;
  rename(folderNo: string, name: string, options?: RequestOptions): Promise<FolderRecord>;
  /** Fails with ConflictError while the folder still has files. */
  delete(folderNo: string, options?: RequestOptions): Promise<MessageResponse>;
}

export function foldersResource(ctx: ClientContext): FoldersResource {
  return {
    create: (body, options = {}) => callEndpoint(ctx, "createFolder", { json: body, signal: options.signal }),
    list: (query = {}, options = {}) =>
      callEndpoint(ctx, "listFolders", { query: { ...query }, signal: options.signal }),
    rename: (folderNo, name, options = {}) =>
      callEndpoint(ctx, "renameFolder", { params: { folderNo }, json: { name }, signal: options.signal }),
    delete: (folderNo, options = {}) =>
      callEndpoint(ctx, "deleteFolder", { params: { folderNo }, signal: options.signal }),
  };
}
