/**
 * Endpoint 4 on Trove's part gateway: checks the signed URL and the session, streams the body
 * into storage at the part's place (never buffered), and records the part (size, part hash, ETag,
 * content-hash block digests) so `complete` needs nothing from storage but the assembly.
 *
 * Every failure is a 400 `{ success: false, error }` (the spec's one failure status for part
 * uploads) with its own message: "Invalid signature", "Part URL expired", "Session expired",
 * "Part 2 must be 5242880 bytes, received 17", ... The URL carries no credential, so the session's
 * own is looked up: once the key or token that started the session is revoked or expired (a
 * token's minting key included) or its workspace disabled, every part is refused
 * (./session-credential.ts). A failed upload leaves no record of the part:
 * on fs the bytes were overwritten in place, so an earlier upload of that number is gone too.
 */
import type { Readable } from "node:stream";
import { ERROR_MESSAGES, type PartUploadResponse } from "@trove/schema";
import { badRequest } from "../errors/index.js";
import { isUuid } from "../errors/params.js";
import { SizeMismatchError } from "../storage/driver.js";
import {
  InvalidPartError,
  plannedPartSize,
  type StoredPart,
  UploadNotFoundError,
} from "../storage/multipart/index.js";
import type { MultipartDeps } from "./multipart-deps.js";
import { startingCredentialAlive } from "./session-credential.js";

/** The refusal of a part for a session whose credential no longer stands. */
export const CREDENTIAL_GONE_MESSAGE = "Session closed: the credential that started it is no longer valid";

export interface ReceivePartInput {
  /** Raw path parameters and query values, exactly as signed. */
  sessionId: string;
  partNumber: string;
  expires: unknown;
  signature: unknown;
  /** The request's Content-Length header, if any. */
  contentLength: string | undefined;
  body: Readable;
  signal?: AbortSignal;
  now?: number;
}

const STATUS_MESSAGES: Record<string, string> = {
  completing: "Session is already being completed",
  completed: "Session already completed",
  aborted: "Session aborted",
  expired: ERROR_MESSAGES.sessionExpired,
};

export async function receivePart(deps: MultipartDeps, input: ReceivePartInput): Promise<PartUploadResponse> {
  const { sessionId, partNumber: rawNumber, expires, signature } = input;
  const now = input.now ?? Date.now();
  if (
    typeof expires !== "string" ||
    typeof signature !== "string" ||
    !deps.signer.verify(sessionId, rawNumber, expires, signature)
  ) {
    throw badRequest("Invalid signature");
  }
  // Signed by us, so both have the shapes we gave them; checked anyway before use.
  if (!/^\d{1,12}$/.test(expires) || !isUuid(sessionId) || !/^[1-9]\d{0,4}$/.test(rawNumber)) {
    throw badRequest("Invalid signature");
  }
  if (Number(expires) * 1000 <= now) throw badRequest("Part URL expired");
  const partNumber = Number(rawNumber);

  const session = await deps.db.multipartSession.findUnique({
    where: { id: sessionId },
    select: {
      status: true,
      mode: true,
      size: true,
      partSize: true,
      partCount: true,
      expiresAt: true,
      storageKey: true,
      storageUploadId: true,
      workspaceId: true,
      createdBy: true,
      uploadTokenId: true,
    },
  });
  if (!session?.storageKey || !session.storageUploadId) throw badRequest(ERROR_MESSAGES.sessionNotFound);
  if (session.status !== "pending") throw badRequest(STATUS_MESSAGES[session.status] ?? "Session closed");
  if (session.expiresAt.getTime() <= now) throw badRequest(ERROR_MESSAGES.sessionExpired);
  if (session.mode !== "gateway") throw badRequest("This session takes its parts at presigned storage URLs");
  if (!(await startingCredentialAlive(deps.db, session))) throw badRequest(CREDENTIAL_GONE_MESSAGE);
  if (partNumber > session.partCount) {
    throw badRequest(`Part number must be from 1 to ${session.partCount}`);
  }
  const expectedSize = plannedPartSize(Number(session.size), session.partSize, partNumber);
  if (input.contentLength !== undefined && Number(input.contentLength) !== expectedSize) {
    throw badRequest(
      `Part ${partNumber} must be ${expectedSize} bytes, Content-Length is ${input.contentLength}`,
    );
  }

  const key = session.storageKey;
  let stored: StoredPart;
  try {
    stored = await deps.store.putPart({
      key,
      uploadId: session.storageUploadId,
      partNumber,
      partSize: session.partSize,
      body: input.body,
      expectedSize,
      ...(input.signal ? { signal: input.signal } : {}),
    });
  } catch (error) {
    await forgetPart(deps, sessionId, partNumber);
    if (error instanceof SizeMismatchError) {
      const received = error.actual > expectedSize ? "received more" : `received ${error.actual}`;
      throw badRequest(`Part ${partNumber} must be ${expectedSize} bytes, ${received}`);
    }
    if (error instanceof InvalidPartError) throw badRequest(error.message);
    if (error instanceof UploadNotFoundError) throw badRequest(ERROR_MESSAGES.sessionExpired);
    throw error;
  }
  await recordPart(deps, sessionId, partNumber, key, stored);
  return { success: true, part_number: partNumber, size: stored.size, etag: stored.etag };
}

/**
 * A failed upload replaced (fs, written in place) or may have replaced the stored bytes of this
 * part number: forget its record, so complete names the part as missing. Not done before the
 * upload (one query less per part): a crash mid-write cannot leave a usable stale record anyway,
 * since the store checks each part against its own record at complete (fs removes it before
 * overwriting the bytes; s3 keeps the earlier part until a new one is whole).
 */
async function forgetPart(deps: MultipartDeps, sessionId: string, number: number): Promise<void> {
  await deps.db.multipartPart.deleteMany({ where: { sessionId, number } }).catch((cause: unknown) => {
    deps.log.warn({ err: cause, sessionId, number }, "multipart: record of a failed part not removed");
  });
}

/**
 * One `INSERT ... ON CONFLICT` per part, in raw SQL: this runs once per part of every upload,
 * and Prisma's upsert cost about 1 ms more CPU per call (query compiler) than the statement.
 */
async function recordPart(
  deps: MultipartDeps,
  sessionId: string,
  number: number,
  storageKey: string,
  stored: StoredPart,
): Promise<void> {
  await deps.db.$executeRaw`
    INSERT INTO multipart_parts (session_id, number, size, checksum, etag, block_digests, storage_key, created_at)
    VALUES (${sessionId}::uuid, ${number}::int, ${BigInt(stored.size)}::bigint, ${stored.partHash},
            ${stored.etag}, ${stored.blockDigests}::text[], ${storageKey}, ${new Date()}::timestamptz)
    ON CONFLICT (session_id, number) DO UPDATE SET
      size = EXCLUDED.size, checksum = EXCLUDED.checksum, etag = EXCLUDED.etag,
      block_digests = EXCLUDED.block_digests, storage_key = EXCLUDED.storage_key,
      created_at = EXCLUDED.created_at`;
}
