/**
 * Folders (spec endpoints 10 to 13), private key only, registered under /api/v1/folders:
 *
 *   POST   /api/v1/folders                     200 { name, folder_no }
 *   GET    /api/v1/folders                     200 { folders: [{ folder_no, name, created_at, total_items, total_size }] }
 *   POST   /api/v1/folders/rename/:folderNo    200 the full folder record
 *   DELETE /api/v1/folders/:folderNo           200 { message: "Folder deleted successfully" }
 *
 * Errors (folders envelopes, `buildErrorBody` of @trove/schema): unknown or malformed folder_no 404
 * `{ error: "Folder not found" }`; name clash and non-empty delete 409 `{ success: false, error }`;
 * create's 400 `{ success: false, error }` (route config `errorVariant: "folder-create"`), the
 * other 400s `{ error: "Validation failed", message }`. Rules: src/folders/.
 */
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
import { registerEndpoint } from "./endpoint-route.js";

export const folderRoutes: FastifyPluginAsync = async (app) => {
  registerEndpoint(
    app,
    "createFolder",
    async (request) => {
      const { workspaceId, keyId } = request.auth;
      return toFolderCreated(await createFolder(app.db, workspaceId, keyId, request.body));
    },
    { config: { errorVariant: "folder-create" } },
  );

  registerEndpoint(app, "listFolders", async (request) => {
    const rows = await listFolders(app.database.sql, request.auth.workspaceId, request.query);
    return { folders: rows.map(toFolderListRow) };
  });

  registerEndpoint(app, "renameFolder", async (request) => {
    const folderNo = parseShortNo(request.params.folderNo, "folders");
    const folder = await renameFolder(app.db, request.auth.workspaceId, folderNo, request.body.name);
    return toFolderRecord(folder, request.auth.workspaceNo);
  });

  registerEndpoint(app, "deleteFolder", async (request) => {
    const folderNo = parseShortNo(request.params.folderNo, "folders");
    await deleteFolder(app.db, request.auth.workspaceId, folderNo);
    return { message: "Folder deleted successfully" };
  });
};
