/**
 * Files (spec endpoints 6 to 9), private key only, registered under /api/v1/files:
 *
 *   GET    /api/v1/files                  200 { files: [list row], meta: { page, limit, total, hasNext, hasPrev } }
 *   GET    /api/v1/files/:fileNo          200 { success: true, data: details }
 *   PATCH  /api/v1/files/:fileNo/rename   200 the full file record
 *   DELETE /api/v1/files/:fileNo          200 { message: "File deleted successfully" }
 *   PATCH  /api/v1/files/:fileNo          200 { success: true, data: details }  (Trove's: { is_private })
 *   POST   /api/v1/files/:fileNo/signed-url  200 { success: true, data: { url, expires_at } }  (Trove's)
 *   POST   /api/v1/files/move            200 { success: true, data: { moved } }  (Trove's; all or none)
 *
 * Method, path, key and schemas come from the endpoint registry (./endpoint-route.ts). A malformed fileNo cannot name a file: the same 404
 * as an unknown one (rename: `{ error: "File <no> not found", code: "FILE_NOT_FOUND" }`). Filter,
 * sort, rename and delete rules: src/files/.
 */
import {
  canonicalizeTransform,
  canonicalVideoTransform,
  DEFAULT_SIGNED_URL_EXPIRES_IN,
  ERROR_MESSAGES,
  parseVideoTransform,
  streamingStepHeights,
} from "@trove/schema";
import type { FastifyPluginAsync } from "fastify";
import { HttpError, isHttpError } from "../errors/http-error.js";
import { parseFileNo } from "../errors/params.js";
import {
  deleteFile,
  findFileDetails,
  findFileToSign,
  listFiles,
  moveFiles,
  renameFile,
  renameNotFound,
  setFilePrivacy,
  toFileDetails,
  toFileListRow,
  toFileRecord,
  transformedUrl,
} from "../files/index.js";
import { HLS_MASTER_URL_NAME } from "../video/stream-path.js";
import { registerEndpoint } from "./endpoint-route.js";

/** The canonical form of a transform the body schema accepted: the image grammar's, else the video one's. */
function signedTransform(text: string): string {
  try {
    return canonicalizeTransform(text);
  } catch {
    return canonicalVideoTransform(parseVideoTransform(text));
  }
}

export const fileRoutes: FastifyPluginAsync = async (app) => {
  registerEndpoint(app, "listFiles", async (request) => {
    const { query } = request;
    const { workspaceId, workspaceNo } = request.auth;
    const { rows, total } = await listFiles(app.database.sql, workspaceId, query);
    return {
      files: rows.map((row) => toFileListRow(app, workspaceNo, row)),
      meta: {
        page: query.page,
        limit: query.limit,
        total,
        hasNext: query.page * query.limit < total,
        hasPrev: query.page > 1,
      },
    };
  });

  registerEndpoint(app, "getFile", async (request) => {
    const fileNo = parseFileNo(request.params.fileNo);
    try {
      const file = await findFileDetails(app.db, request.auth.workspaceId, fileNo);
      return { success: true as const, data: toFileDetails(app, file) };
    } catch (error) {
      if (isHttpError(error)) throw error;
      // The spec's body for this failure: { error: "Failed to get file details", message }.
      throw new HttpError(500, ERROR_MESSAGES.fileDetailsFailed, {
        title: ERROR_MESSAGES.fileDetailsFailed,
        cause: error,
      });
    }
  });

  registerEndpoint(
    app,
    "renameFile",
    async (request) => {
      let fileNo: bigint;
      try {
        fileNo = parseFileNo(request.params.fileNo);
      } catch {
        throw renameNotFound(request.params.fileNo);
      }
      const file = await renameFile(app.db, request.auth.workspaceId, fileNo, request.body.name);
      return toFileRecord(app, request.auth.workspaceNo, file);
    },
    {
      // The spec's 404 of a rename names the number it was given: { error, code }.
      invalidRequest: (part, _issues, request) => {
        const { fileNo } = request.params as { fileNo: string };
        return part === "params" ? renameNotFound(fileNo) : undefined;
      },
    },
  );

  registerEndpoint(app, "deleteFile", async (request) => {
    const fileNo = parseFileNo(request.params.fileNo);
    await deleteFile(
      { db: app.db, storage: app.storage, log: request.log },
      request.auth.workspaceId,
      fileNo,
    );
    return { message: ERROR_MESSAGES.fileDeleted };
  });

  registerEndpoint(app, "moveFiles", async (request) => {
    const { file_nos, folder_no } = request.body;
    const moved = await moveFiles(app.db, request.auth.workspaceId, file_nos, folder_no);
    return { success: true as const, data: { moved } };
  });

  registerEndpoint(app, "updateFile", async (request) => {
    const fileNo = parseFileNo(request.params.fileNo);
    const file = await setFilePrivacy(app.db, request.auth.workspaceId, fileNo, request.body.is_private);
    return { success: true as const, data: toFileDetails(app, file) };
  });

  registerEndpoint(app, "createSignedUrl", async (request) => {
    const { body } = request;
    const fileNo = parseFileNo(request.params.fileNo);
    const file = await findFileToSign(app.database.sql, request.auth.workspaceId, fileNo);
    const expiresAt = new Date(Date.now() + (body.expires_in ?? DEFAULT_SIGNED_URL_EXPIRES_IN) * 1000);
    // Signed in canonical form: the delivery host checks the canonical transform of the URL. A
    // streaming ladder is signed as written and names the HLS master (src/video/stream-path.ts).
    const stream = body.transform ? streamingStepHeights(body.transform) !== null : false;
    const transform = body.transform ? (stream ? body.transform : signedTransform(body.transform)) : "";
    const url = transformedUrl(
      app,
      request.auth.workspaceNo,
      { id: file.id, path: file.path, isPrivate: true },
      transform,
      expiresAt,
      stream ? `/${HLS_MASTER_URL_NAME}` : "",
    );
    return { success: true as const, data: { url, expires_at: expiresAt.toISOString() } };
  });
};
