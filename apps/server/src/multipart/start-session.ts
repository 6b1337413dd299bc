/**
 * Endpoint 3 (POST /api/v1/multipart/start): plan the parts, begin the storage upload, record the
 * session, hand out one URL per part. The credential's upload policy is checked first (multipart
 * allowed, declared size, folder) and its fixed fields recorded; complete checks the rest with
 * the real bytes (src/multipart/session-policy.ts). The session remembers the token that started it.
 *
 * A token's session never outlives the token (`expires_at` is the earlier of the two, part URLs
 * included), and takes one of the token's `max_files` at start, in the transaction that records
 * it: a one-shot token starts one session. The count is the file's if the session completes,
 * and given back if it ends without one (./end-session.ts).
 *
 * `transform` and `webhook_url` are judged here as a direct upload judges them, before any
 * storage work or token count is spent: a transform the credential may not apply is 403
 * TRANSFORM_NOT_ALLOWED (src/uploads/store-time-transform.ts), a webhook the SSRF guard refuses
 * as written 400 (src/uploads/upload-fields.ts); an unparsable transform never gets here (the
 * route's 400 INVALID_TRANSFORM). Both are kept on the session for complete's registration.
 */
import type { MultipartSession, MultipartStartBody } from "@trove/schema";
import { badRequest } from "../errors/index.js";
import { assertFolderPathFits, assertPathFits, splitFolderPath } from "../folders/folder-path.js";
import type { Prisma } from "../generated/prisma/client.js";
import { spendUploadToken, tokenExpired } from "../keys/upload-tokens.js";
import type { AuthContext } from "../plugins/auth.js";
import { objectKey } from "../storage/driver.js";
import { choosePartSize, InvalidUploadPlanError } from "../storage/multipart/index.js";
import { fileExpiresIn } from "../uploads/file-expiry.js";
import { checkStoreTimeTransform } from "../uploads/store-time-transform.js";
import { checkWebhook } from "../uploads/upload-fields.js";
import {
  applyFixedFields,
  checkMultipartAllowed,
  checkPolicySize,
  resolvePolicyFolder,
} from "../uploads/upload-policy.js";
import { uuidV7 } from "../uploads/uuid-v7.js";
import { checkQuota } from "../usage/quota.js";
import type { MultipartDeps } from "./multipart-deps.js";

export async function startSession(
  deps: MultipartDeps,
  auth: Pick<AuthContext, "workspaceId" | "keyId" | "keyType" | "policy" | "tokenId">,
  requested: MultipartStartBody,
  now: number = Date.now(),
): Promise<MultipartSession> {
  const { store, config } = deps;
  if (requested.size > config.maxFileBytes) {
    throw badRequest(`size exceeds the maximum multipart upload size of ${config.maxFileBytes} bytes`);
  }
  const { policy } = auth;
  checkMultipartAllowed(policy);
  checkPolicySize(policy, requested.size);
  await checkQuota(deps.upload.sql ?? deps.db, auth.workspaceId, requested.size);
  // Checked now (an over-long one is refused before any part is sent), applied at complete.
  const expiresIn = fileExpiresIn(policy, requested.expires_in);
  const transform = await checkStoreTimeTransform(deps.db, {
    workspaceId: auth.workspaceId,
    transform: requested.transform,
    credential: auth.keyType,
    policy,
  });
  if (requested.webhook_url) checkWebhook(requested.webhook_url, deps.upload.trustedRanges);
  const fixed = applyFixedFields(policy, {
    tags: requested.tags,
    metadata: requested.metadata,
    customId: requested.custom_id,
  });
  const body: MultipartStartBody = {
    ...requested,
    ...(policy ? { folder: resolvePolicyFolder(policy, requested.folder) } : {}),
    ...(fixed.tags === undefined ? {} : { tags: fixed.tags }),
    ...(fixed.metadata === undefined ? {} : { metadata: fixed.metadata }),
    ...(fixed.customId == null ? {} : { custom_id: fixed.customId }),
  };
  // Refuse now what registration would refuse after the whole upload.
  const folder = splitFolderPath(body.folder ?? "").join("/");
  if (folder) {
    assertFolderPathFits(folder);
    assertPathFits(`${folder}/${body.file_name}`);
  }
  let plan: ReturnType<typeof choosePartSize>;
  try {
    // The store may plan fewer, larger parts (fs: parts cost requests, not storage work).
    plan = store.planParts ? store.planParts(body.size) : choosePartSize(body.size);
  } catch (error) {
    if (error instanceof InvalidUploadPlanError) throw badRequest(`size: ${error.message}`);
    throw error;
  }
  const nowSeconds = Math.floor(now / 1000);
  const expiresAt = Math.min(
    nowSeconds + (body.ttl_seconds ?? config.defaultTtlSeconds),
    auth.tokenId ? await tokenExpiresAt(deps, auth.tokenId) : Number.POSITIVE_INFINITY,
  );
  if (expiresAt <= nowSeconds) throw tokenExpired();
  const ttlSeconds = expiresAt - nowSeconds;
  // The session id is also the id of the file it becomes, so the object sits under it.
  const id = uuidV7(now);
  const key = objectKey(auth.workspaceId, id, body.file_name);
  // Direct mode needs a store that presigns (createMultipartDeps checks this at start-up).
  const presign = config.mode === "direct" ? store.presignPart?.bind(store) : undefined;
  const mode = presign ? "direct" : "gateway";

  const { uploadId } = await store.begin({
    key,
    size: body.size,
    partSize: plan.partSize,
    partCount: plan.partCount,
    contentType: body.format,
  });
  try {
    const numbers = Array.from({ length: plan.partCount }, (_, i) => i + 1);
    const parts = presign
      ? await Promise.all(
          numbers.map((partNumber) => presign({ key, uploadId, partNumber, expiresInSeconds: ttlSeconds })),
        )
      : numbers.map((partNumber) => deps.signer.url(id, partNumber, expiresAt));
    const { tokenId } = auth;
    const record = {
      data: {
        id,
        workspaceId: auth.workspaceId,
        createdBy: auth.keyId,
        uploadTokenId: auth.tokenId ?? null,
        fileName: body.file_name,
        size: BigInt(body.size),
        format: body.format,
        folderPath: body.folder ?? null,
        tags: body.tags ?? [],
        metadata: (body.metadata ?? {}) as Prisma.InputJsonValue,
        customId: body.custom_id ?? null,
        randomPrefix: body.random_prefix ?? false,
        isPrivate: body.is_private ?? false,
        fileExpiresIn: expiresIn ?? null,
        embeddedMetadata: body.embedded_metadata ?? null,
        transform: transform ?? null,
        webhookUrl: body.webhook_url ?? null,
        partSize: plan.partSize,
        partCount: plan.partCount,
        expiresAt: new Date(expiresAt * 1000),
        mode,
        storageKey: key,
        storageUploadId: uploadId,
      },
    } satisfies Prisma.MultipartSessionCreateArgs;
    if (tokenId) {
      await deps.db.$transaction(async (tx) => {
        await spendUploadToken(tx, tokenId);
        await tx.multipartSession.create(record);
      });
    } else {
      await deps.db.multipartSession.create(record);
    }
    return { session_id: id, part_size: plan.partSize, parts, expires_at: expiresAt };
  } catch (error) {
    await store.abort({ key, uploadId }).catch((cause: unknown) => {
      deps.log.warn(
        { err: cause, key, uploadId },
        "multipart start failed; its storage upload was not aborted",
      );
    });
    throw error;
  }
}

/** When the token expires, Unix seconds rounded down: a session ends no later than its token. */
async function tokenExpiresAt(deps: MultipartDeps, tokenId: string): Promise<number> {
  const token = await deps.db.uploadToken.findUnique({ where: { id: tokenId }, select: { expiresAt: true } });
  if (!token) throw tokenExpired();
  return Math.floor(token.expiresAt.getTime() / 1000);
}
