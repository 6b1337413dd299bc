/**
 * Files (spec endpoints 6 to 9), private key only, registered under /api/v1/files:
 *
 *   GET    /api/v1/files                  200 { files: [list row], meta: { page, limit, total, hasNext, hasPrev } }
 *   GET    /api/v1/files/:fileNo          200 { success: true, data: details }
 *   PATCH  /api/v1/files/:fileNo/rename   200 the full file record
 *   DELETE /api/v1/files/:fileNo          200 { message: "File deleted successfully" }
 *   PATCH  /api/v1/files/:fileNo          200 { success: true, data: details }  (Trove's: { is_private })
 *   POST   /api/v1/files/:fileNo/signed-url  200 { success: true, data: { url, expires_at } }  (Trove's)
 *
 * Requests are validated with the @trove/schema schemas (a ZodError is the group's 400);
 * responses are built as the schema types. A malformed fileNo cannot name a file: the same 404
 * as an unknown one (rename: `{ error: "File <no> not found", code: "FILE_NOT_FOUND" }`). Filter,
 * sort, rename and delete rules: src/files/.
 */
import {
  canonicalizeTransform,
  DEFAULT_SIGNED_URL_EXPIRES_IN,
  ERROR_MESSAGES,
  type FileDetailsResponse,
  type FileRecord,
  type ListFilesResponse,
  listFilesQuerySchema,
  type MessageResponse,
  renameFileBodySchema,
  type SignedUrlResponse,
  signedUrlBodySchema,
  updateFileBodySchema,
} from "@trove/schema";
import type { FastifyPluginAsync } from "fastify";
import { HttpError, isHttpError } from "../errors/http-error.js";
import { parseFileNo } from "../errors/params.js";
import {
  deleteFile,
  findFileDetails,
  listFiles,
  renameFile,
  renameNotFound,
  setFilePrivacy,
  toFileDetails,
  toFileListRow,
  toFileRecord,
  transformedUrl,
} from "../files/index.js";

interface FileNoParams {
  fileNo: string;
}

export const fileRoutes: FastifyPluginAsync = async (app) => {
  const config = { auth: "private" as const };

  app.get("/", { config }, async (request): Promise<ListFilesResponse> => {
    const query = listFilesQuerySchema.parse(request.query);
    const { workspaceId, workspaceNo } = request.auth;
    const { rows, total } = await listFiles(app.db, workspaceId, query);
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

  app.get<{ Params: FileNoParams }>("/:fileNo", { config }, async (request): Promise<FileDetailsResponse> => {
    const fileNo = parseFileNo(request.params.fileNo);
    try {
      const file = await findFileDetails(app.db, request.auth.workspaceId, fileNo);
      return { success: true, data: toFileDetails(app, file) };
    } catch (error) {
      if (isHttpError(error)) throw error;
      // The spec's body for this failure: { error: "Failed to get file details", message }.
      throw new HttpError(500, ERROR_MESSAGES.fileDetailsFailed, {
        title: ERROR_MESSAGES.fileDetailsFailed,
        cause: error,
      });
    }
  });

  app.patch<{ Params: FileNoParams }>("/:fileNo/rename", { config }, async (request): Promise<FileRecord> => {
    const body = renameFileBodySchema.parse(request.body);
    let fileNo: bigint;
    try {
      fileNo = parseFileNo(request.params.fileNo);
    } catch {
      throw renameNotFound(request.params.fileNo);
    }
    const file = await renameFile(app.db, request.auth.workspaceId, fileNo, body.name);
    return toFileRecord(app, request.auth.workspaceNo, file);
  });

  app.delete<{ Params: FileNoParams }>("/:fileNo", { config }, async (request): Promise<MessageResponse> => {
    const fileNo = parseFileNo(request.params.fileNo);
    await deleteFile(
      { db: app.db, storage: app.storage, log: request.log },
      request.auth.workspaceId,
      fileNo,
    );
    return { message: ERROR_MESSAGES.fileDeleted };
  });

  app.patch<{ Params: FileNoParams }>(
    "/:fileNo",
    { config },
    async (request): Promise<FileDetailsResponse> => {
      const body = updateFileBodySchema.parse(request.body);
      const fileNo = parseFileNo(request.params.fileNo);
      const file = await setFilePrivacy(app.db, request.auth.workspaceId, fileNo, body.is_private);
      return { success: true, data: toFileDetails(app, file) };
    },
  );

  app.post<{ Params: FileNoParams }>(
    "/:fileNo/signed-url",
    { config },
    async (request): Promise<SignedUrlResponse> => {
      const body = signedUrlBodySchema.parse(request.body ?? {});
      const fileNo = parseFileNo(request.params.fileNo);
      const file = await findFileDetails(app.db, request.auth.workspaceId, fileNo);
      const expiresAt = new Date(Date.now() + (body.expires_in ?? DEFAULT_SIGNED_URL_EXPIRES_IN) * 1000);
      // Signed in canonical form: the delivery host checks the canonical transform of the URL.
      const transform = body.transform ? canonicalizeTransform(body.transform) : "";
      const url = transformedUrl(
        app,
        request.auth.workspaceNo,
        { path: file.path, isPrivate: true },
        transform,
        expiresAt,
      );
      return { success: true, data: { url, expires_at: expiresAt.toISOString() } };
    },
  );
};
