import type {
  FileDetails,
  FileListRow,
  FileRecord,
  ListFilesQueryInput,
  MessageResponse,
  PageMeta,
  UpdateFileBody,
} from "@trove/schema";
import { callEndpoint } from "../call-endpoint.js";
import type { ClientContext } from "../client/client-context.js";
import { paginate } from "./paginate.js";

/** A list row with the wire's misspelled `thumbanil` also readable as `thumbnail`. */
export type FileListItem = FileListRow & { thumbnail: FileListRow["thumbanil"] };

export interface FileList {
  files: FileListItem[];
  meta: PageMeta;
}

/** The list query; `tags` may also be an array (sent comma-joined). */
export type ListFilesQuery = Omit<ListFilesQueryInput, "page" | "limit" | "tags"> & {
  page?: number;
  limit?: number;
  tags?: string | readonly string[];
};

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface FilesResource {
  /** One page. */
  list(query?: ListFilesQuery, options?: RequestOptions): Promise<FileList>;
  /** Every file, page after page (`for await`), from `query.page` (default 1) on. */
  listAll(query?: ListFilesQuery, options?: RequestOptions): AsyncGenerator<FileListItem, void, undefined>;
  get(fileNo: string, options?: RequestOptions): Promise<FileDetails>;
  /** `name` is the new base name; the server keeps the extension. */
  rename(fileNo: string, name: string, options?: RequestOptions): Promise<FileRecord>;
  /** Permanent, in storage and database. */
  delete(fileNo: string, options?: RequestOptions): Promise<MessageResponse>;
  /** Makes the file private (served only through signed URLs) or public. */
  update(fileNo: string, changes: UpdateFileBody, options?: RequestOptions): Promise<FileDetails>;
  /**
   * A delivery URL of the file (optionally transformed) that works until `expiresIn` seconds from
   * now (default 3600, at most 7 days), private or not. Signed by the server: the signing key never
   * leaves it, and rotating it needs no client change.
   */
  signedUrl(fileNo: string, options?: SignedUrlOptions): Promise<SignedUrl>;
  /**
   * Moves 1 to 100 distinct files to a folder (`folderNo`), or to the root (`null`), all or none:
   * an unknown file or folder is NotFoundError and nothing moves; a name already taken there is
   * ConflictError. Storage is untouched; each file is served at its new path from then on.
   */
  move(
    fileNos: readonly string[],
    folderNo: string | null,
    options?: RequestOptions,
  ): Promise<{ moved: number }>;
}

export interface SignedUrlOptions extends RequestOptions {
  transform?: string;
  expiresIn?: number;
}

export interface SignedUrl {
  url: string;
  /** ISO 8601. */
  expires_at: string;
}

export function filesResource(ctx: ClientContext): FilesResource {
  const list = async (query: ListFilesQuery = {}, options: RequestOptions = {}): Promise<FileList> => {
    const { tags, ...rest } = query;
    const response = await callEndpoint(ctx, "listFiles", {
      query: { ...rest, tags: typeof tags === "string" || tags === undefined ? tags : tags.join(",") },
      signal: options.signal,
    });
    return {
      files: response.files.map((row) => ({ ...row, thumbnail: row.thumbanil })),
      meta: response.meta,
    };
  };
  return {
    list,
    listAll: (query = {}, options = {}) =>
      paginate(
        (page) => list({ ...query, page }, options),
        (page) => page.files,
        (page) => page.meta.hasNext,
        Number(query.page ?? 1),
      ),
    get: async (fileNo, options = {}) =>
      (await callEndpoint(ctx, "getFile", { params: { fileNo }, signal: options.signal })).data,
    rename: (fileNo, name, options = {}) =>
      callEndpoint(ctx, "renameFile", { params: { fileNo }, json: { name }, signal: options.signal }),
    delete: (fileNo, options = {}) =>
      callEndpoint(ctx, "deleteFile", { params: { fileNo }, signal: options.signal }),
    update: async (fileNo, changes, options = {}) =>
      (await callEndpoint(ctx, "updateFile", { params: { fileNo }, json: changes, signal: options.signal }))
        .data,
    signedUrl: async (fileNo, options = {}) =>
      (
        await callEndpoint(ctx, "createSignedUrl", {
          params: { fileNo },
          json: {
            ...(options.transform === undefined ? {} : { transform: options.transform }),
            ...(options.expiresIn === undefined ? {} : { expires_in: options.expiresIn }),
          },
          signal: options.signal,
        })
      ).data,
    move: async (fileNos, folderNo, options = {}) =>
      (
        await callEndpoint(ctx, "moveFiles", {
          json: { file_nos: [...fileNos], folder_no: folderNo },
          signal: options.signal,
        })
      ).data,
  };
}
