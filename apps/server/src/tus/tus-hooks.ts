/**
 * The @tus/server hooks that make a tus upload a Trove upload: who may create and continue it
 * (the credential of `request.auth`, carried to the hooks in a WeakMap keyed by the Web request),
 * what it may carry (the direct upload's fields and the credential's policy, refused before any
 * byte is stored), and what it becomes at the end (./tus-finish.ts).
 *
 * Hooks throw `HttpError`s; `onResponseError` keeps the error for the route, which answers it in
 * the upload envelope like every upload refusal (./tus-routes.ts).
 */
import type { Upload } from "@tus/utils";
import { HttpError } from "../errors/http-error.js";
import { isStartingCredential, mayAbandon } from "../multipart/session-credential.js";
import type { AuthContext } from "../plugins/auth.js";
import { objectKey } from "../storage/driver.js";
import { fileExpiresIn } from "../uploads/file-expiry.js";
import type { UploadDeps } from "../uploads/upload-deps.js";
import { emptyFile, fileTooLarge } from "../uploads/upload-errors.js";
import { checkPolicySize, checkTransformAllowed, resolvePolicyFolder } from "../uploads/upload-policy.js";
import { checkQuota } from "../usage/quota.js";
import { parseTusFields } from "./tus-fields.js";
import { finishTusUpload } from "./tus-finish.js";
import type { TroveTusStore } from "./tus-store.js";

export interface TusRequestContext {
  auth: AuthContext;
  /** The error a hook or handler failed with, answered by the route. */
  error?: unknown;
}

export interface TusHookDeps {
  upload: UploadDeps;
  store: TroveTusStore;
  /** Largest tus upload, bytes (`Tus-Max-Size`). */
  maxBytes: number;
  expirySeconds: number;
  contexts: WeakMap<Request, TusRequestContext>;
  now?: () => number;
}

/** The same 404 for an unknown upload and another credential's: a leaked URL says nothing. */
export function tusNotFound(): HttpError {
  return new HttpError(404, "Upload not found");
}

export function tusHooks(deps: TusHookDeps) {
  const { upload, store, contexts } = deps;
  const now = deps.now ?? Date.now;
  const contextOf = (req: Request): TusRequestContext => {
    const context = contexts.get(req);
    if (!context) throw new Error("tus: a request without its Trove context");
    return context;
  };

  return {
    async onUploadCreate(req: Request, created: Upload) {
      const { auth } = contextOf(req);
      const fields = parseTusFields(created.metadata, upload.trustedRanges);
      const size = created.size ?? 0;
      if (size === 0) throw emptyFile();
      if (size > deps.maxBytes) throw fileTooLarge(deps.maxBytes);
      checkPolicySize(auth.policy, size);
      if (auth.policy) resolvePolicyFolder(auth.policy, fields.folder);
      checkTransformAllowed(auth.policy, fields.transform);
      fileExpiresIn(auth.policy, fields.expires_in);
      await checkQuota(upload.sql ?? upload.db, auth.workspaceId, size);
      const createdAt = now();
      await upload.db.tusUpload.create({
        data: {
          id: created.id,
          workspaceId: auth.workspaceId,
          createdBy: auth.keyId,
          uploadTokenId: auth.tokenId ?? null,
          keyType: auth.keyType,
          uploadLength: BigInt(size),
          metadata: (created.metadata ?? {}) as Record<string, string>,
          storageKey: store.deps.bytes.keyFor(
            auth.workspaceId,
            created.id,
            objectKey(auth.workspaceId, created.id, fields.file_name),
          ),
          createdAt: new Date(createdAt),
          expiresAt: new Date(createdAt + deps.expirySeconds * 1000),
        },
      });
      return {};
    },

    async onIncomingRequest(req: Request, id: string) {
      if (req.method === "POST") return;
      const { auth } = contextOf(req);
      const row = await upload.db.tusUpload.findUnique({ where: { id } }).catch(() => null);
      if (!row || row.workspaceId !== auth.workspaceId) throw tusNotFound();
      const allowed = req.method === "DELETE" ? mayAbandon(row, auth) : isStartingCredential(row, auth);
      if (!allowed) throw tusNotFound();
      if (row.expiresAt.getTime() <= now()) {
        throw new HttpError(410, "This upload expired; start a new one");
      }
    },

    async onUploadFinish(req: Request, finished: Upload) {
      const { auth } = contextOf(req);
      const file = await finishTusUpload(upload, store, auth, finished.id);
      return { headers: { "Trove-File-No": file.fileNo, "Trove-File-Url": file.url } };
    },

    onResponseError(req: Request, error: Error | { status_code: number; body: string }) {
      const context = contexts.get(req);
      if (context) context.error = error;
      return undefined;
    },
  };
}
