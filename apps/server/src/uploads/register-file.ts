/**
 * `registerFile(deps, input)`: turns bytes already in storage into a file of the workspace. The
 * one place where direct, remote-URL and multipart uploads become `files` rows; see ./index.ts
 * for the contract and the decisions.
 */

import type { UploadPolicy, UploadResponse } from "@trove/schema";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { hashStream } from "../content-hash/index.js";
import type { RawQuery } from "../db/direct-sql.js";
import type { RenderGate } from "../delivery/render-gate.js";
import { badRequest, HttpError } from "../errors/index.js";
import type { UrlBuilder } from "../files/file-urls.js";
import { ensureFolderPath } from "../folders/ensure-folder-path.js";
import { assertPathFits, splitFolderPath } from "../folders/folder-path.js";
import type { File, Folder, Prisma, PrismaClient } from "../generated/prisma/client.js";
import { randomString } from "../ids.js";
import { spendUploadToken } from "../keys/upload-tokens.js";
import { isMediaError } from "../media/media-error.js";
import { type MediaLimits, resolveMediaLimits } from "../media/media-limits.js";
import { type ProcessedImage, processImage } from "../media/process-image.js";
import { SNIFF_HEAD_BYTES, sniffContent } from "../media/sniff-content.js";
import type { TroveMetrics } from "../metrics/trove-metrics.js";
import type { TrustedRangesInput } from "../network/trusted-ranges.js";
import { objectKey, type StorageDriver } from "../storage/driver.js";
import { imageInputOf, putBuffer, readObjectHead, thumbnailKeyOf } from "../storage/object-keys.js";
import { enqueueWebhook, FILE_UPLOADED, fileUploadedEvent } from "../webhooks/delivery.js";
import { emitWorkspaceEvent, subscribedSql } from "../webhooks/workspace-events.js";
import { type InsertFileRowOptions, insertFileRow, type NewFileRow } from "./insert-file-row.js";
import { checkStoreTimeTransform } from "./store-time-transform.js";
import { collisionName, collisionPattern, collisionStem, storedFileName } from "./stored-name.js";
import type { UploadCredential } from "./upload-credential.js";
import { emptyFile, toUploadError } from "./upload-errors.js";
import type { UploadMethod } from "./upload-method.js";
import {
  applyFixedFields,
  checkPolicySize,
  checkPolicyType,
  checkStoredSize,
  effectiveMaxBytes,
  resolvePolicyFolder,
} from "./upload-policy.js";
import { toUploadResponse } from "./upload-response.js";
import { uuidV7 } from "./uuid-v7.js";

export type { UploadMethod } from "./upload-method.js";

export interface UploadDeps {
  db: PrismaClient;
  /** Single statements outside transactions (`app.database.sql`, no Prisma); unset: `db`. */
  sql?: RawQuery;
  storage: StorageDriver;
  deliveryUrl: FastifyInstance["deliveryUrl"];
  /** Signing of private files' URLs. */
  config: UrlBuilder["config"];
  mediaLimits?: Partial<MediaLimits>;
  /**
   * Largest direct or remote upload (TROVE_MAX_UPLOAD_BYTES): a store-time transform's output is
   * held to it (and to the policy's `max_file_size`) like the bytes that arrived. Unset: no cap.
   */
  maxUploadBytes?: number;
  /** Admits transform uploads with delivery renders (unset: no bound, for embedders and tests). */
  renderGate?: Pick<RenderGate, "run">;
  /** For webhook URLs that are IP literals in a trusted range. */
  trustedRanges?: TrustedRangesInput;
  /** Attempts of a webhook delivery before it is marked failed (queue default 10). */
  webhookMaxAttempts?: number;
  log?: Pick<FastifyBaseLogger, "warn">;
  /** Counts each registered file (src/metrics/); null or absent when metrics are off. */
  metrics?: Pick<TroveMetrics, "upload"> | null;
}

/** The dependencies from a built app (`app.db`, `app.storage`, `app.config`). */
export function uploadDepsOf(app: FastifyInstance): UploadDeps {
  return {
    db: app.db,
    sql: app.database.sql,
    storage: app.storage,
    deliveryUrl: app.deliveryUrl,
    config: app.config,
    mediaLimits: app.config.mediaLimits,
    maxUploadBytes: app.config.maxUploadBytes,
    renderGate: app.renderGate,
    trustedRanges: app.config.trustedRanges,
    webhookMaxAttempts: app.config.webhooks.maxAttempts,
    log: app.log,
    metrics: app.metrics,
  };
}

export interface RegisterFileInput {
  workspaceId: string;
  /** For URLs in the response. */
  workspaceNo: string;
  /** Where the uploaded bytes are now (a temporary or the final key). */
  storageKey: string;
  /** Bytes at `storageKey`. */
  size: number;
  /**
   * Content hash of those bytes, the b1 block-tree scheme (src/content-hash/block-hash.ts),
   * or a function that computes it: called only if the file keeps these bytes (a store-time
   * transform stores, and hashes, its output instead).
   */
  hash: string | (() => string);
  /**
   * The id for the row. Give the one `storageKey` was built with (`objectKey(ws, fileId, name)`),
   * so the object sits under its file's id; default a new UUIDv7.
   */
  fileId?: string;
  /** The first SNIFF_HEAD_BYTES of the content, if the caller kept them (saves one ranged read). */
  head?: Uint8Array;
  /**
   * The whole content, if the caller still holds it (small direct uploads): an image is then
   * read from memory instead of from storage. Called at most once.
   */
  bytes?: (() => Buffer) | undefined;
  /**
   * False when nothing was written at `storageKey` yet and `bytes` holds the content (a small or
   * transformed direct upload; `storageKey` must then be a new key): the bytes are stored there
   * only if the file keeps them as they are; a transformed file stores just its output. Default true.
   */
  sourceStored?: boolean;
  /** The caller's file name; see ./stored-name.ts for what is stored. */
  fileName: string;
  /** Folder path, created as needed ("" or absent: the root). */
  folder?: string | undefined;
  tags?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
  customId?: string | null | undefined;
  /** Appends a random suffix to the stored name (`cat-k3x9q2ab.jpg`). */
  randomPrefix?: boolean | undefined;
  /** Served only through signed URLs (a policy with `private: true` forces it). */
  isPrivate?: boolean | undefined;
  /** Store-time transformation (raster images only). */
  transform?: string | undefined;
  uploadSource: UploadMethod;
  originalUrl?: string | null | undefined;
  /** API key id of the uploader, or null. */
  createdBy: string | null;
  /**
   * `request.auth.keyType`: "public" for a public key or an upload token, which is held to strict
   * mode at store time and always told `is_duplicate: false` (./upload-credential.ts). Default
   * "private".
   */
  credential?: UploadCredential | undefined;
  /** Enqueue a signed `file.uploaded` webhook in the same transaction as the row. */
  webhookUrl?: string | undefined;
  /**
   * The credential's upload policy (src/uploads/upload-policy.ts), enforced here so that direct,
   * remote and multipart uploads share it: folder, size, sniffed type, fixed fields.
   */
  policy?: UploadPolicy | undefined;
  /** The upload token to count the file against, in the row's transaction (src/keys/upload-tokens.ts). */
  uploadTokenId?: string | null | undefined;
  /** Delete the object at `storageKey` when registration fails (default true). */
  deleteSourceOnError?: boolean;
  /**
   * More database work that must commit or roll back with the row, run in its transaction right
   * after the insert (multipart complete marks its session completed here). Only `tx` inside.
   * Throwing rolls the registration back like any other failure.
   */
  inTransaction?: (tx: Prisma.TransactionClient, file: File) => Promise<void>;
}

export interface RegisteredFile {
  file: File;
  folder: Folder | null;
  isDuplicate: boolean;
  /** The flat upload response (endpoints 1 and 2). */
  response: UploadResponse;
  webhook: { jobId: string; webhookId: string } | null;
}

/**
 * How the stored file is described, whatever the pipeline did (`key`: its storage key; `hash`
 * as RegisterFileInput's until a transform replaces it).
 */
type Described = { key: string; hash: RegisterFileInput["hash"] } & Pick<
  NewFileRow,
  | "size"
  | "mimeType"
  | "format"
  | "extension"
  | "width"
  | "height"
  | "orientation"
  | "thumbnailKey"
  | "transformString"
>;

const RANDOM_SUFFIX_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const RANDOM_SUFFIX_LENGTH = 8;
/** Inserts tried before giving up on a free name (each failure recomputes the next free one). */
const MAX_NAME_ATTEMPTS = 8;
/** Existing alternatives read to find the next free `-n`. */
const MAX_COLLISION_SCAN = 10_000;

export async function registerFile(deps: UploadDeps, request: RegisterFileInput): Promise<RegisteredFile> {
  const { storage } = deps;
  let input = request;
  const fileId = input.fileId ?? uuidV7();
  /** Keys this call wrote: removed again if registration fails. */
  const written: string[] = [];
  let replacedOriginal = false;

  const sourceStored = input.sourceStored ?? true;
  if (!sourceStored && !input.bytes) throw new Error("registerFile: sourceStored false needs bytes");

  let registered: RegisteredFile;
  let inserting = false;
  try {
    // Here, where direct, remote and multipart uploads meet, so no path stores an empty file.
    if (input.size === 0) throw emptyFile();
    if (input.policy) {
      const policy = input.policy;
      checkPolicySize(policy, input.size);
      input = { ...applyFixedFields(policy, input), folder: resolvePolicyFolder(policy, input.folder) };
    }
    const transform = await checkStoreTimeTransform(deps.db, {
      workspaceId: input.workspaceId,
      transform: input.transform,
      credential: input.credential ?? "private",
      policy: input.policy,
    });
    input = { ...input, transform };
    const described = await describeAndProcess(deps, input, fileId, written, () => {
      replacedOriginal = true;
    });
    if (!sourceStored && described.key === input.storageKey && !replacedOriginal) {
      // The file keeps the bytes as they came (no transform took effect): store them now, under
      // the key the receiver made for them and wrote nothing at.
      await putBuffer(storage, input.storageKey, (input.bytes as () => Buffer)(), described.mimeType, {
        newKey: true,
      });
    }
    const suffix = input.randomPrefix
      ? randomString(RANDOM_SUFFIX_LENGTH, RANDOM_SUFFIX_ALPHABET)
      : undefined;
    const name = storedFileName(input.fileName, described.extension, suffix ? { suffix } : {});
    inserting = true;
    registered = await insertFile(deps, input, fileId, name, described);
  } catch (error) {
    // Once the insert has begun, only our own refusal (a 4xx thrown inside the transaction, which
    // rolls it back) proves that no row names these objects. Any other failure, a dropped
    // connection above all, may have come after the commit: deleting would leave a file without
    // its bytes. The orphan sweeper removes them later if no row names them.
    const refused = error instanceof HttpError && error.status < 500;
    if (inserting && !refused) throw toUploadError(error);
    const cleanup = [...written];
    if (input.deleteSourceOnError !== false || replacedOriginal || !sourceStored)
      cleanup.push(input.storageKey);
    for (const key of new Set(cleanup)) {
      await storage.delete(key).catch((cause: unknown) => {
        deps.log?.warn({ err: cause, key }, "upload failed and one of its objects could not be removed");
      });
    }
    throw toUploadError(error);
  }

  // A transformed upload was stored under a new key: the original bytes are not needed any more.
  if (registered.file.storageKey !== input.storageKey && !replacedOriginal && sourceStored) {
    await storage.delete(input.storageKey).catch((cause: unknown) => {
      deps.log?.warn({ err: cause, key: input.storageKey }, "original of a transformed upload not removed");
    });
  }
  deps.metrics?.upload(
    input.uploadSource,
    registered.isDuplicate ? "duplicate" : "stored",
    Number(registered.file.size),
  );
  return registered;
}

async function describeAndProcess(
  deps: UploadDeps,
  input: RegisterFileInput,
  fileId: string,
  written: string[],
  onOriginalReplaced: () => void,
): Promise<Described> {
  const { storage } = deps;
  const head =
    input.head ??
    (input.size === 0 ? Buffer.alloc(0) : await readObjectHead(storage, input.storageKey, SNIFF_HEAD_BYTES));
  const sniffed = await sniffContent(head, input.fileName);
  checkPolicyType(input.policy, sniffed.mimeType);
  const transform = input.transform?.trim() ? input.transform.trim() : undefined;

  const described: Described = {
    key: input.storageKey,
    size: input.size,
    hash: input.hash,
    mimeType: sniffed.mimeType,
    format: sniffed.format,
    extension: sniffed.extension,
    width: null,
    height: null,
    orientation: null,
    thumbnailKey: null,
    transformString: null,
  };

  if (!sniffed.isRasterImage) {
    if (transform !== undefined) {
      throw new HttpError(
        400,
        `transform applies to raster images only (jpeg, png, webp, gif, avif, tiff); this file is ${sniffed.mimeType}`,
        { errorCode: "UNSUPPORTED_MEDIA_TYPE" },
      );
    }
    return described;
  }

  const limits = resolveMediaLimits(deps.mediaLimits);
  let processed: ProcessedImage;
  try {
    const image = input.bytes
      ? input.bytes()
      : await imageInputOf(storage, input.storageKey, limits.maxInputBytes);
    const render = () =>
      processImage({ input: image, limits, size: input.size, ...(transform ? { transform } : {}) });
    // Only a transform renders pixels; without one, processImage reads the header alone.
    processed = transform && deps.renderGate ? await deps.renderGate.run(render) : await render();
  } catch (error) {
    // Undecodable (truncated, corrupt) but no transformation asked for: keep the bytes as a file.
    if (isMediaError(error) && error.code === "UNSUPPORTED_MEDIA_TYPE" && transform === undefined) {
      deps.log?.warn({ err: error, key: input.storageKey }, "image could not be decoded; stored as bytes");
      return described;
    }
    throw error;
  }

  const { info } = processed;
  // The decoder's verdict on an image can be finer than the sniff's; the policy sees it too.
  checkPolicyType(input.policy, info.mimeType);
  Object.assign(described, {
    mimeType: info.mimeType,
    format: info.format,
    extension: info.extension,
    width: info.width,
    height: info.height,
    orientation: info.orientation,
    transformString: processed.transform === "" ? null : processed.transform,
  });

  if (processed.output.kind === "transformed") {
    const buffer = processed.output.buffer;
    // Before anything is written: a refusal leaves no object, no row and no token count spent.
    checkStoredSize(
      effectiveMaxBytes(deps.maxUploadBytes ?? Number.POSITIVE_INFINITY, input.policy),
      buffer.length,
    );
    const key = objectKey(input.workspaceId, fileId, storedFileName(input.fileName, info.extension));
    // Nothing is stored under this file's id yet when the original was held: any key is new.
    await putBuffer(storage, key, buffer, info.mimeType, { newKey: input.sourceStored === false });
    if (key === input.storageKey) onOriginalReplaced();
    else written.push(key);
    described.key = key;
    described.size = buffer.length;
    described.hash = (await hashStream([buffer])).hash;
  }

  // Rendered by delivery on its first request, not here (src/storage/object-keys.ts).
  described.thumbnailKey = thumbnailKeyOf(described.key);
  return described;
}

type Tx = Prisma.TransactionClient;

async function insertFile(
  deps: UploadDeps,
  input: RegisterFileInput,
  fileId: string,
  baseName: string,
  described: Described,
): Promise<RegisteredFile> {
  const row = {
    id: fileId,
    workspaceId: input.workspaceId,
    storageKey: described.key,
    size: described.size,
    mimeType: described.mimeType,
    format: described.format,
    extension: described.extension,
    width: described.width,
    height: described.height,
    orientation: described.orientation,
    hash: typeof described.hash === "string" ? described.hash : described.hash(),
    tags: input.tags ?? [],
    metadata: input.metadata ?? {},
    customId: input.customId ?? null,
    uploadSource: input.uploadSource,
    transformString: described.transformString,
    originalUrl: input.originalUrl ?? null,
    thumbnailKey: described.thumbnailKey,
    createdBy: input.createdBy,
    isPrivate: input.isPrivate ?? false,
  };

  /**
   * Inserts under the first free name in the folder; `db` is the transaction, if there is one,
   * and `insertDb` what runs the insert (the transaction, or the direct path outside one).
   * Null when `unless` held: nothing was inserted.
   */
  const place = async (
    db: PrismaClient | Tx,
    insertDb: RawQuery,
    folder: Folder | null,
    options: InsertFileRowOptions = {},
  ) => {
    const prefix = folder ? `${folder.path}/` : "";
    let name = baseName;
    for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt++) {
      const path = `${prefix}${name}`;
      assertPathFits(path);
      const inserted = await insertFileRow(
        insertDb,
        { ...row, folderId: folder?.id ?? null, name, path },
        options,
      );
      if (inserted.skipped) return null;
      if (inserted.file) return { file: inserted.file, isDuplicate: inserted.isDuplicate };
      name = await nextFreeName(db, input.workspaceId, prefix, baseName);
    }
    throw new HttpError(409, `Could not find a free name for "${baseName}" in this folder`);
  };

  // A file in the root, with no more work to commit with it, is one statement and no transaction,
  // unless a webhook endpoint wants the upload: then the statement inserts nothing (it decides in
  // its own snapshot) and the file is inserted with its deliveries in the transaction below.
  // The uploader's answer, which webhooks of this upload carry too; metrics count the real one.
  const credential = input.credential ?? "private";

  const inRoot = splitFolderPath(input.folder ?? "").length === 0;
  const alone = inRoot && !input.inTransaction && !input.webhookUrl && !input.uploadTokenId;
  if (alone) {
    const placed = await place(deps.db, deps.sql ?? deps.db, null, {
      unless: subscribedSql(input.workspaceId, FILE_UPLOADED),
    });
    if (placed) {
      const response = toUploadResponse(
        deps,
        input.workspaceNo,
        placed.file,
        null,
        placed.isDuplicate,
        credential,
      );
      return { ...placed, folder: null, response, webhook: null };
    }
  }

  // Only database work in here (PGlite runs one transaction at a time); storage I/O is done.
  return deps.db.$transaction(async (tx) => {
    const folder = await ensureFolderPath(tx, input.workspaceId, input.folder ?? "", input.createdBy);
    // Without `unless`, place finds a name or throws: never null.
    const { file, isDuplicate } = (await place(tx, tx, folder))!;
    // Counted with the row: a refusal here rolls the row back, and the caller removes the objects.
    if (input.uploadTokenId) await spendUploadToken(tx, input.uploadTokenId);
    if (input.inTransaction) await input.inTransaction(tx, file);
    const response = toUploadResponse(deps, input.workspaceNo, file, folder, isDuplicate, credential);
    const webhook = input.webhookUrl
      ? await enqueueWebhook(tx, {
          workspaceId: input.workspaceId,
          url: input.webhookUrl,
          payload: fileUploadedEvent(response),
          signWithUrlKey: input.credential === "public",
          ...(deps.trustedRanges === undefined ? {} : { trustedRanges: deps.trustedRanges }),
          ...(deps.webhookMaxAttempts === undefined ? {} : { maxAttempts: deps.webhookMaxAttempts }),
        })
      : null;
    await emitWorkspaceEvent(tx, {
      workspaceId: input.workspaceId,
      type: FILE_UPLOADED,
      // The workspace's own receivers get the record as a private key sees it.
      data:
        credential === "private"
          ? response
          : toUploadResponse(deps, input.workspaceNo, file, folder, isDuplicate, "private"),
      subject: file.id,
    });
    return { file, folder, isDuplicate, response, webhook };
  });
}

/** `name-n.ext` with n one above the highest alternative already in the folder. */
async function nextFreeName(
  db: PrismaClient | Tx,
  workspaceId: string,
  prefix: string,
  baseName: string,
): Promise<string> {
  const pattern = collisionPattern(baseName);
  // `startsWith` may over-match (LIKE wildcards in the name); the pattern filters exactly.
  const rows = await db.file.findMany({
    where: { workspaceId, path: { startsWith: `${prefix}${collisionStem(baseName)}` } },
    select: { name: true },
    take: MAX_COLLISION_SCAN,
  });
  let highest = 0;
  for (const row of rows) {
    const match = pattern.exec(row.name);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  if (rows.length >= MAX_COLLISION_SCAN) {
    return collisionName(baseName, Number.parseInt(randomString(6, "0123456789"), 10) + 1_000_000);
  }
  if (highest >= 999_999_999) throw badRequest(`Too many files named like "${baseName}" in this folder`);
  return collisionName(baseName, highest + 1);
}
