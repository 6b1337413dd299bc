/**
 * Endpoint 5 (POST /api/v1/multipart/complete): check the parts, assemble them in storage,
 * register the file, mark the session completed. Idempotent and safe when completes race or
 * land on different instances:
 *
 *   pending --(conditional update, one winner)--> completing --(with the file row, one transaction)--> completed
 *
 * - Only the credential that started the session may complete it (./session-credential.ts);
 *   any other, even of the same workspace, gets 404 "Session not found" like an unknown id.
 * - A complete that finds the session `completed` returns its file (same `file_no`), until the
 *   session's `expires_at`: after it, 404 "Session not found" (the session is over; its id, in
 *   every part URL and so in logs, must not answer for ever).
 * - One that finds it `completing` polls until the other finishes (up to `waitMs`), then 409.
 *   The complete in progress touches the session every COMPLETING_HEARTBEAT_MS, so a session
 *   untouched for COMPLETING_STALE_MS belongs to an instance that died, and is taken over: a
 *   client resuming after a crash mid-complete waits a minute, not the length of an assembly.
 * - Missing or wrong parts, a failed assembly, or a transient failure put the session back to
 *   `pending` (the client can upload what is missing and complete again); a registration the
 *   content itself fails (400: image too large, bad folder...) deletes the object and leaves the
 *   session `aborted`, giving a token back the count the session reserved (./end-session.ts).
 * - The file is held to the upload policy of the credential that started the session (sniffed
 *   type, real size, folder): a refusal deletes the object and aborts the session like any other
 *   refused content. A token's count was taken at start (./start-session.ts): the file keeps it.
 * - Re-running the assembly after a crash is safe: when storage says the upload is gone but the
 *   object is there with the session's size, it was assembled already.
 */
import { ERROR_MESSAGES, embeddedMetadataModeSchema } from "@trove/schema";
import { hashStoredObject } from "../content-hash/hash-stored-object.js";
import { combinePartBlockDigests } from "../content-hash/index.js";
import { badRequest, HttpError, notFound } from "../errors/index.js";
import { isUuid } from "../errors/params.js";
import type { File, MultipartSession, Prisma } from "../generated/prisma/client.js";
import type { AuthContext } from "../plugins/auth.js";
import {
  type CompletePart,
  InvalidPartError,
  plannedPartSize,
  UploadNotFoundError,
} from "../storage/multipart/index.js";
import { registerFile } from "../uploads/register-file.js";
import { endSession } from "./end-session.js";
import type { MultipartDeps } from "./multipart-deps.js";
import { isStartingCredential } from "./session-credential.js";
import { policyOfSession } from "./session-policy.js";

/** How often a complete in progress marks its session as still being worked on. */
export const COMPLETING_HEARTBEAT_MS = 10_000;
/** A `completing` session not touched for this long (six missed heartbeats) belongs to an instance that died. */
export const COMPLETING_STALE_MS = 60_000;
const POLL_MS = 200;
const MAX_LISTED_MISSING = 20;

export interface CompleteOptions {
  /** How long to wait for a complete already in progress elsewhere, ms (default 30 s). */
  waitMs?: number;
  /** Interval of the heartbeat while this call holds the session (default COMPLETING_HEARTBEAT_MS). */
  heartbeatMs?: number;
  now?: () => number;
}

/** The claim on a `completing` session was lost to another complete (it finished first). */
class ClaimLostError extends Error {
  override name = "ClaimLostError";
}

interface PartToComplete extends CompletePart {
  blockDigests?: string[];
}

type Completer = Pick<AuthContext, "workspaceId" | "workspaceNo" | "keyId" | "tokenId"> &
  Partial<Pick<AuthContext, "keyType" | "embeddedMetadata">>;

export async function completeSession(
  deps: MultipartDeps,
  auth: Completer,
  sessionId: string,
  options: CompleteOptions = {},
): Promise<File> {
  if (!isUuid(sessionId)) throw notFound("multipart");
  const now = options.now ?? Date.now;
  const deadline = now() + (options.waitMs ?? 30_000);
  const id = sessionId.toLowerCase();

  for (;;) {
    const session = await deps.db.multipartSession.findFirst({
      where: { id, workspaceId: auth.workspaceId },
    });
    if (!session || !isStartingCredential(session, auth)) throw notFound("multipart");

    if (session.status === "completed") {
      if (session.expiresAt.getTime() <= now()) throw notFound("multipart");
      return completedFile(deps, session);
    }
    if (session.status === "expired") throw badRequest(ERROR_MESSAGES.sessionExpired);
    if (session.status === "aborted") throw badRequest("Session aborted");

    let claimed: boolean;
    if (session.status === "completing") {
      if (session.updatedAt.getTime() > now() - COMPLETING_STALE_MS) {
        if (now() >= deadline) throw new HttpError(409, "Session is being completed; try again shortly");
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        continue;
      }
      claimed = await claim(deps, id, { status: "completing", updatedAt: session.updatedAt }, now());
    } else {
      if (session.expiresAt.getTime() <= now()) throw badRequest(ERROR_MESSAGES.sessionExpired);
      claimed = await claim(deps, id, { status: "pending", expiresAt: { gt: new Date(now()) } }, now());
    }
    if (!claimed) continue; // someone else moved it: look again

    const heartbeat = startHeartbeat(deps, id, options.heartbeatMs ?? COMPLETING_HEARTBEAT_MS);
    try {
      return await finish(deps, auth, session);
    } catch (error) {
      if (error instanceof ClaimLostError) continue;
      throw error;
    } finally {
      heartbeat.stop();
    }
  }
}

/**
 * Touches `updatedAt` of a session this call holds (`completing`) every `intervalMs`, so that
 * other instances see it alive. A failed touch is only logged: the next one may get through,
 * and six in a row must fail before anyone takes over.
 */
function startHeartbeat(deps: MultipartDeps, id: string, intervalMs: number): { stop(): void } {
  const timer = setInterval(() => {
    deps.db.multipartSession
      .updateMany({ where: { id, status: "completing" }, data: { updatedAt: new Date() } })
      .catch((cause: unknown) => deps.log.warn({ err: cause, id }, "multipart: complete heartbeat failed"));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

async function claim(
  deps: MultipartDeps,
  id: string,
  where: Prisma.MultipartSessionWhereInput,
  now: number,
): Promise<boolean> {
  const { count } = await deps.db.multipartSession.updateMany({
    where: { id, ...where },
    data: { status: "completing", updatedAt: new Date(now) },
  });
  return count === 1;
}

async function completedFile(deps: MultipartDeps, session: MultipartSession): Promise<File> {
  const file = session.completedFileId
    ? await deps.db.file.findUnique({ where: { id: session.completedFileId } })
    : null;
  if (!file) throw new HttpError(404, "The file of this session no longer exists");
  return file;
}

/** Puts a session we hold (`completing`) back to `pending`, or ends it (`aborted`, a token's count given back). */
async function release(deps: MultipartDeps, session: MultipartSession, status: "pending" | "aborted") {
  if (status === "aborted") {
    await endSession(deps.db, session, { status: "completing" }, "aborted");
    return;
  }
  await deps.db.multipartSession.updateMany({
    where: { id: session.id, status: "completing" },
    data: { status },
  });
}

async function finish(deps: MultipartDeps, auth: Completer, session: MultipartSession): Promise<File> {
  const key = session.storageKey;
  const uploadId = session.storageUploadId;
  if (!key || !uploadId) {
    await release(deps, session, "aborted");
    throw badRequest("Session aborted");
  }
  const size = Number(session.size);

  let parts: PartToComplete[];
  try {
    parts = session.mode === "direct" ? await listedParts(deps, session) : await recordedParts(deps, session);
    await assemble(deps, key, uploadId, size, parts);
  } catch (error) {
    if (error instanceof UploadNotFoundError) {
      // Neither the upload nor the assembled object is there: the parts are gone for good.
      await release(deps, session, "aborted");
      await deps.db.multipartPart.deleteMany({ where: { sessionId: session.id } });
      throw badRequest("Session aborted: its parts are no longer in storage");
    }
    await release(deps, session, "pending");
    if (error instanceof InvalidPartError) throw badRequest(error.message);
    throw error;
  }

  let hash: string;
  try {
    // Gateway mode hashed every block as it streamed in; direct mode never saw the bytes, so it
    // reads the assembled object back, a few ranges at once.
    hash =
      session.mode === "direct"
        ? (await hashStoredObject(deps.storage, key)).hash
        : combinePartBlockDigests(
            parts.map((p) => ({ number: p.number, blockDigests: p.blockDigests ?? [] })),
          );
  } catch (error) {
    await release(deps, session, "pending");
    throw error;
  }

  try {
    const policy = await policyOfSession(deps, session);
    const registered = await registerFile(deps.upload, {
      workspaceId: auth.workspaceId,
      workspaceNo: auth.workspaceNo,
      storageKey: key,
      fileId: session.id,
      size,
      hash,
      fileName: session.fileName,
      folder: session.folderPath ?? undefined,
      tags: session.tags,
      metadata: metadataOf(session.metadata),
      customId: session.customId,
      randomPrefix: session.randomPrefix,
      isPrivate: session.isPrivate,
      expiresIn: session.fileExpiresIn ?? undefined,
      // Judged at start (./start-session.ts); the transform is judged again here, under the
      // policy and strict mode of now.
      transform: session.transform ?? undefined,
      webhookUrl: session.webhookUrl ?? undefined,
      // The completer is the credential that started the session (./session-credential.ts).
      credential: auth.keyType ?? "private",
      embeddedMetadata: embeddedMetadataModeSchema.safeParse(session.embeddedMetadata).data,
      workspaceEmbeddedMetadata: auth.embeddedMetadata,
      uploadSource: "multipart",
      createdBy: session.createdBy,
      policy,
      // Not spent again: the session took its count at start.
      uploadTokenId: null,
      // The object is the only copy of the parts: decide below whether it goes.
      deleteSourceOnError: false,
      inTransaction: async (tx, file) => {
        const { count } = await tx.multipartSession.updateMany({
          where: { id: session.id, status: "completing" },
          data: { status: "completed", completedFileId: file.id },
        });
        if (count !== 1) throw new ClaimLostError();
        await tx.multipartPart.deleteMany({ where: { sessionId: session.id } });
      },
    });
    return registered.file;
  } catch (error) {
    if (error instanceof ClaimLostError) throw error;
    if (error instanceof HttpError && error.status < 500) {
      // The content cannot become a file (too large an image, a name or folder that does not fit):
      // trying again cannot help.
      await deps.storage.delete(key).catch((cause: unknown) => {
        deps.log.warn({ err: cause, key }, "multipart: object of a refused upload not removed");
      });
      await release(deps, session, "aborted");
      await deps.db.multipartPart.deleteMany({ where: { sessionId: session.id } });
    } else {
      await release(deps, session, "pending");
    }
    throw error;
  }
}

function metadataOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function missingPartsError(missing: number[]): HttpError {
  const shown = missing.slice(0, MAX_LISTED_MISSING).join(", ");
  const more = missing.length > MAX_LISTED_MISSING ? ` and ${missing.length - MAX_LISTED_MISSING} more` : "";
  return badRequest(`Missing parts: ${shown}${more}`);
}

/** Gateway mode: the parts the gateway recorded, each checked against the plan. */
async function recordedParts(deps: MultipartDeps, session: MultipartSession): Promise<PartToComplete[]> {
  const rows = await deps.db.multipartPart.findMany({
    where: { sessionId: session.id },
    orderBy: { number: "asc" },
  });
  const byNumber = new Map(rows.map((row) => [row.number, row]));
  const parts: PartToComplete[] = [];
  const missing: number[] = [];
  for (let number = 1; number <= session.partCount; number++) {
    const row = byNumber.get(number);
    const expected = plannedPartSize(Number(session.size), session.partSize, number);
    // The gateway records only parts of the exact size; anything else counts as not uploaded.
    if (!row?.etag || Number(row.size) !== expected) {
      missing.push(number);
      continue;
    }
    parts.push({ number, etag: row.etag, size: expected, blockDigests: row.blockDigests });
  }
  if (missing.length > 0) throw missingPartsError(missing);
  return parts;
}

/** Direct mode: the parts storage holds (every page of ListParts), checked against the plan. */
async function listedParts(deps: MultipartDeps, session: MultipartSession): Promise<PartToComplete[]> {
  const key = session.storageKey as string;
  const uploadId = session.storageUploadId as string;
  if (!deps.store.listParts) throw new Error(`The ${deps.store.kind} store cannot list parts`);
  let listed: Awaited<ReturnType<NonNullable<MultipartDeps["store"]["listParts"]>>>;
  try {
    listed = await deps.store.listParts({ key, uploadId });
  } catch (error) {
    // Assembled by an earlier attempt that died before registering: `assemble` recognises it.
    if (error instanceof UploadNotFoundError) return [];
    throw error;
  }
  const byNumber = new Map(listed.map((part) => [part.number, part]));
  const missing: number[] = [];
  const parts: PartToComplete[] = [];
  for (let number = 1; number <= session.partCount; number++) {
    const part = byNumber.get(number);
    if (!part) {
      missing.push(number);
      continue;
    }
    const expected = plannedPartSize(Number(session.size), session.partSize, number);
    if (part.size !== expected) {
      throw badRequest(`Part ${number} must be ${expected} bytes, not ${part.size}`);
    }
    parts.push({ number, etag: part.etag, size: part.size });
  }
  if (missing.length > 0) throw missingPartsError(missing);
  return parts;
}

async function assemble(
  deps: MultipartDeps,
  key: string,
  uploadId: string,
  size: number,
  parts: PartToComplete[],
): Promise<void> {
  try {
    if (parts.length === 0) throw new UploadNotFoundError(uploadId);
    await deps.store.complete({ key, uploadId, parts });
  } catch (error) {
    if (!(error instanceof UploadNotFoundError)) throw error;
    // The upload is gone: assembled already by an attempt that died before registering?
    const stat = await deps.storage.stat(key);
    if (stat?.size !== size) throw error;
  }
}
