/**
 * Endpoint 4 on Trove's part gateway: checks the signed URL and the session, streams the body
 * into storage at the part's place (never buffered), and records the part (size, part hash, ETag,
 * content-hash block digests) so `complete` needs nothing from storage but the assembly.
 *
 * Every failure is a 400 `{ success: false, error }` (the spec's one failure status for part
 * uploads) with its own message: "Invalid signature", "Part URL expired", "Session expired",
 * "Part 2 must be 5242880 bytes, received 17", ... A failed upload leaves no record of the part:
 * on fs the bytes were overwritten in place, so an earlier upload of that number is gone too.
 */
import type { Readable } from "node:stream";
import type { PartUploadResponse } from "@trove/schema";
import { badRequest } from "../errors/index.js";
import { isUuid } from "../errors/params.js";
import { SizeMismatchError } from "../storage/driver.js";
import { InvalidPartError, plannedPartSize, UploadNotFoundError } from "../storage/multipart/index.js";
import type { MultipartDeps } from "./multipart-deps.js";

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
  expired: "Session expired",
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
    },
  });
  if (!session?.storageKey || !session.storageUploadId) throw badRequest("Session not found");
  if (session.status !== "pending") throw badRequest(STATUS_MESSAGES[session.status] ?? "Session closed");
  if (session.expiresAt.getTime() <= now) throw badRequest("Session expired");
  if (session.mode !== "gateway") throw badRequest("This session takes its parts at presigned storage URLs");
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
  const where = { sessionId_number: { sessionId, number: partNumber } };
  // From here the stored bytes of this part number are being replaced: forget the old record first,
  // so a crash mid-write cannot leave a record that no longer matches the bytes.
  await deps.db.multipartPart.deleteMany({ where: { sessionId, number: partNumber } });
  let stored: Awaited<ReturnType<MultipartDeps["store"]["putPart"]>>;
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
    if (error instanceof SizeMismatchError) {
      const received = error.actual > expectedSize ? "received more" : `received ${error.actual}`;
      throw badRequest(`Part ${partNumber} must be ${expectedSize} bytes, ${received}`);
    }
    if (error instanceof InvalidPartError) throw badRequest(error.message);
    if (error instanceof UploadNotFoundError) throw badRequest("Session expired");
    throw error;
  }

  const record = {
    size: BigInt(stored.size),
    checksum: stored.partHash,
    etag: stored.etag,
    blockDigests: stored.blockDigests,
    storageKey: key,
  };
  await deps.db.multipartPart.upsert({
    where,
    create: { sessionId, number: partNumber, ...record },
    update: { ...record, createdAt: new Date() },
  });
  return { success: true, part_number: partNumber, size: stored.size, etag: stored.etag };
}
