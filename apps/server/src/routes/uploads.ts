/**
 * Upload endpoints (spec endpoints 1 and 2), public or private key:
 *
 *   POST /api/v1/uploads          multipart/form-data: `file` + text fields (directUploadFieldsSchema)
 *   POST /api/v1/uploads/remote   JSON (remoteUploadBodySchema): the server fetches `remote_url`
 *   POST /api/v1/uploads/tokens   JSON (createUploadTokenBodySchema), private key: mints an upload
 *                                 token (src/keys/upload-tokens.ts), 200 uploadTokenResponseSchema
 *
 * The credential's upload policy (an upload token's, or a public key's) is enforced by
 * src/uploads/upload-policy.ts: here what can be refused before the bytes arrive (remote and
 * folder, and the size while streaming), in registerFile the rest (sniffed type, token count).
 * Policy refusals: 403 FOLDER_NOT_ALLOWED / REMOTE_NOT_ALLOWED / TRANSFORM_NOT_ALLOWED /
 * TOKEN_EXHAUSTED, 413 FILE_TOO_LARGE (direct, or a store-time transform's output), 415
 * TYPE_NOT_ALLOWED, 401 TOKEN_EXPIRED. A public key or token is held to strict mode (403).
 *
 * Both answer 200 with `{ success: true, data: <upload record> }` (the flat record itself with
 * TROVE_UPLOAD_RESPONSE=flat; src/uploads/upload-response.ts) and register the file
 * through src/uploads/register-file.ts. The file part is hashed on the way in and streamed to
 * storage (a small one is held in memory and written once; src/uploads/receive-direct-upload.ts);
 * remote bodies too. Errors are the upload envelope
 * `{ error, success: false, errorCode, message }`:
 *
 *   400 VALIDATION_FAILED (missing file or file_name, bad field), INVALID_METADATA, INVALID_TRANSFORM,
 *       IMAGE_TOO_LARGE (decompression bomb, output over the pixel cap), UNSUPPORTED_MEDIA_TYPE
 *       (transform on a non-image), REMOTE_URL_FORBIDDEN (SSRF guard, remote_url or webhook_url),
 *       REMOTE_FETCH_FAILED (upstream 4xx, too many redirects), FILE_TOO_LARGE (remote body over the cap)
 *   401 UNAUTHORIZED   413 FILE_TOO_LARGE (direct upload over TROVE_MAX_UPLOAD_BYTES)
 *   415 UNSUPPORTED_MEDIA_TYPE (wrong request Content-Type)   502 REMOTE_FETCH_FAILED (network, 5xx)
 *
 * `@fastify/multipart` is registered inside this plugin, so multipart parsing exists only here.
 */
import fastifyMultipart from "@fastify/multipart";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../errors/http-error.js";
import { mintUploadToken } from "../keys/upload-tokens.js";
import { fetchRemoteUpload, fileNameFromUrl } from "../uploads/fetch-remote-upload.js";
import { fileExpiresIn } from "../uploads/file-expiry.js";
import { HOLD_FOR_TRANSFORM_BYTES, receiveDirectUpload } from "../uploads/receive-direct-upload.js";
import { registerFile } from "../uploads/register-file.js";
import { toUploadError } from "../uploads/upload-errors.js";
import {
  checkEarlyDirectFields,
  checkRemoteBody,
  parseDirectFields,
  registrationFields,
  remoteBodyError,
  withoutBlankFields,
} from "../uploads/upload-fields.js";
import {
  checkRemoteAllowed,
  checkTransformAllowed,
  effectiveMaxBytes,
  resolvePolicyFolder,
} from "../uploads/upload-policy.js";
import { uploadResponseBody } from "../uploads/upload-response.js";
import { checkQuota } from "../usage/quota.js";
import { registerEndpoint } from "./endpoint-route.js";

function unsupportedContentType(expected: string): HttpError {
  return new HttpError(415, `Content-Type must be ${expected}`, { errorCode: "UNSUPPORTED_MEDIA_TYPE" });
}

function isJsonContentType(request: FastifyRequest): boolean {
  const contentType = String(request.headers["content-type"] ?? "").toLowerCase();
  return /^application\/([a-z0-9.+-]+\+)?json\b/.test(contentType);
}

/** Aborts when the client goes away before the response is written. */
function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) controller.abort(new Error("client disconnected"));
  });
  return controller.signal;
}

/** Bytes of a direct upload's body taken as form fields and boundaries by the quota pre-check. */
const FORM_ALLOWANCE_BYTES = 8192;

export const uploadRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app;
  await app.register(fastifyMultipart, {
    limits: { fileSize: config.maxUploadBytes },
    throwFileSizeLimit: true,
  });
  const deps = app.uploadDeps;

  registerEndpoint(app, "uploadFile", async (request) => {
    if (!request.isMultipart()) throw unsupportedContentType("multipart/form-data");
    const { auth } = request;
    // The body's declared length, less what its form fields and boundaries may take, stands for
    // the file's: a file that fits is never refused for its form, and one that passes the quota
    // by less than the allowance is refused at registration instead (its bytes then removed).
    const declared = Number(request.headers["content-length"]);
    const fileBytes = Number.isSafeInteger(declared) ? Math.max(0, declared - FORM_ALLOWANCE_BYTES) : 0;
    await checkQuota(deps.sql ?? app.db, auth.workspaceId, fileBytes);
    const received = await receiveDirectUpload(request, {
      storage: app.storage,
      workspaceId: auth.workspaceId,
      maxBytes: effectiveMaxBytes(config.maxUploadBytes, auth.policy),
      beforeFile: (fields) => {
        checkEarlyDirectFields(fields, config.trustedRanges);
        // A folder sent before the file is judged before any byte is stored.
        if (auth.policy && fields.folder !== undefined) resolvePolicyFolder(auth.policy, fields.folder);
        checkTransformAllowed(auth.policy, fields.transform);
      },
      holdForTransformUpTo: HOLD_FOR_TRANSFORM_BYTES,
    });
    const { file } = received;
    if (!file) throw new HttpError(400, "file is required");

    let fields: ReturnType<typeof parseDirectFields>;
    try {
      fields = parseDirectFields(received.fields, config.trustedRanges);
    } catch (error) {
      if (file.stored) await app.storage.delete(file.key).catch(() => {});
      throw error;
    }

    const result = await registerFile(deps, {
      workspaceId: auth.workspaceId,
      workspaceNo: auth.workspaceNo,
      storageKey: file.key,
      fileId: file.fileId,
      size: file.size,
      hash: file.hash,
      head: file.head,
      bytes: file.bytes,
      sourceStored: file.stored,
      ...registrationFields(fields),
      workspaceEmbeddedMetadata: auth.embeddedMetadata,
      uploadSource: "direct",
      createdBy: auth.keyId,
      credential: auth.keyType,
      policy: auth.policy,
      uploadTokenId: auth.tokenId,
    });
    return uploadResponseBody(config.uploadResponse, auth.workspaceNo, result.response);
  });

  registerEndpoint(
    app,
    "uploadFromUrl",
    async (request, reply) => {
      const { auth, body } = request;
      checkRemoteBody(body, config.trustedRanges);
      if (auth.policy) resolvePolicyFolder(auth.policy, body.folder);
      // Refused before the server fetches anything.
      checkTransformAllowed(auth.policy, body.transform);
      fileExpiresIn(auth.policy, body.expires_in);
      const fileName = body.file_name ?? fileNameFromUrl(body.remote_url);
      const fetched = await fetchRemoteUpload(body.remote_url, fileName, {
        storage: app.storage,
        workspaceId: auth.workspaceId,
        maxBytes: effectiveMaxBytes(config.maxUploadBytes, auth.policy),
        timeoutMs: config.remoteFetchTimeoutMs,
        trustedRanges: config.trustedRanges,
        signal: abortOnDisconnect(reply),
        beforeBody: (declaredBytes) => checkQuota(deps.sql ?? app.db, auth.workspaceId, declaredBytes),
        lookup: config.outbound?.lookup,
        connect: config.outbound?.connect,
      }).catch((error: unknown) => {
        throw toUploadError(error);
      });

      const result = await registerFile(deps, {
        workspaceId: auth.workspaceId,
        workspaceNo: auth.workspaceNo,
        storageKey: fetched.key,
        fileId: fetched.fileId,
        size: fetched.size,
        hash: fetched.hash,
        head: fetched.head,
        bytes: fetched.bytes,
        fileName,
        folder: body.folder,
        tags: body.tags,
        metadata: body.metadata,
        customId: body.custom_id,
        randomPrefix: body.random_prefix,
        isPrivate: body.is_private,
        transform: body.transform,
        expiresIn: body.expires_in,
        embeddedMetadata: body.embedded_metadata,
        workspaceEmbeddedMetadata: auth.embeddedMetadata,
        uploadSource: "remote",
        originalUrl: body.remote_url,
        createdBy: auth.keyId,
        credential: auth.keyType,
        policy: auth.policy,
        uploadTokenId: auth.tokenId,
        webhookUrl: body.webhook_url,
      });
      return uploadResponseBody(config.uploadResponse, auth.workspaceNo, result.response);
    },
    {
      // The request's type and the credential's policy are refused before any field is read.
      beforeValidation: (request) => {
        if (!isJsonContentType(request)) throw unsupportedContentType("application/json");
        checkRemoteAllowed(request.auth.policy);
        request.body = withoutBlankFields(request.body);
      },
      invalidRequest: (part, issues, request) =>
        part === "body" ? remoteBodyError(request.body, issues) : undefined,
    },
  );

  registerEndpoint(app, "createUploadToken", async (request) => {
    const { workspaceId, keyId } = request.auth;
    return mintUploadToken(app.db, { workspaceId, apiKeyId: keyId, body: request.body });
  });
};
