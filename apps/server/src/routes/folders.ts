/**
 * Folders (spec endpoints 10 to 13), private key only, registered under /api/v1/folders:
 *
 *   POST   /api/v1/folders                     200 { name, folder_no }
 *   GET    /api/v1/folders                     200 { folders: [{ folder_no, name, created_at, total_items, total_size }] }
 *   POST   /api/v1/folders/rename/:folderNo    200 the full folder record
 *   DELETE /api/v1/folders/:folderNo           200 { message: "Folder deleted successfully" }
 *
 * Errors (folders envelopes, src/errors/error-body.ts): unknown or malformed folder_no 404
 * `{ error: "Folder not found" }`; name clash and non-empty delete 409 `{ success: false, error }`;
 * create's 400 `{ success: false, error }` (route config `errorVariant: "folder-create"`), the
 * other 400s `{ error: "Validation failed", message }`. Rules: src/folders/.
 */
import {
  type CreateFolderResponse,
  createFolderBodySchema,
  type FolderRecord,
  type ListFoldersResponse,
  listFoldersQuerySchema,
  type MessageResponse,
  renameFolderBodySchema,
} from "@trove/schema";
import type { FastifyPluginAsync } from "fastify";
import { parseShortNo } from "../errors/params.js";
import {
  createFolder,
  deleteFolder,
  listFolders,
  renameFolder,
  toFolderCreated,
  toFolderListRow,
  toFolderRecord,
} from "../folders/index.js";

interface FolderNoParams {
  folderNo: string;
}

export const folderRoutes: FastifyPluginAsync = async (app) => {
  const config = { auth: "private" as const };

  app.post(
    "/",
    { config: { ...config, errorVariant: "folder-create" as const } },
    async (request): Promise<CreateFolderResponse> => {
      const body = createFolderBodySchema.parse(request.body);
      const { workspaceId, keyId } = request.auth;
      return toFolderCreated(await createFolder(app.db, workspaceId, keyId, body));
    },
  );

  app.get("/", { config }, async (request): Promise<ListFoldersResponse> => {
    const query = listFoldersQuerySchema.parse(request.query);
    const rows = await listFolders(app.db, request.auth.workspaceId, query);
    return { folders: rows.map(toFolderListRow) };
  });

  app.post<{ Params: FolderNoParams }>(
    "/rename/:folderNo",
    { config },
    async (request): Promise<FolderRecord> => {
      const body = renameFolderBodySchema.parse(request.body);
      const folderNo = parseShortNo(request.params.folderNo, "folders");
      const folder = await renameFolder(app.db, request.auth.workspaceId, folderNo, body.name);
      return toFolderRecord(folder, request.auth.workspaceNo);
    },
  );

  app.delete<{ Params: FolderNoParams }>(
    "/:folderNo",
    { config },
    async (request): Promise<MessageResponse> => {
      const folderNo = parseShortNo(request.params.folderNo, "folders");
      await deleteFolder(app.db, request.auth.workspaceId, folderNo);
      return { message: "Folder deleted successfully" };
    },
  );
};
