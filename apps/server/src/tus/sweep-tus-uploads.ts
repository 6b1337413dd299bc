/**
 * Removes tus uploads past their `expires_at` (TROVE_TUS_EXPIRY_SECONDS after creation): an
 * unfinished one's bytes and row, a finished one's row only (its file stays; the upload URL
 * answers 404 from then on). Run on the multipart sweep's interval by ./tus-routes.ts in
 * instances that run workers; safe in several at once (a row is deleted only while expired and
 * unfinished as read, removing missing bytes is a no-op).
 */
import type { PrismaClient } from "../generated/prisma/client.js";
import type { TusBytes } from "./tus-bytes.js";

const BATCH = 100;

export interface TusSweepDeps {
  db: Pick<PrismaClient, "tusUpload">;
  bytes: Pick<TusBytes, "remove">;
  /** Forgets the in-process hasher of a swept upload. */
  forget?: (id: string) => void;
}

/** Sweeps every expired upload; returns how many rows went. */
export async function sweepExpiredTusUploads(deps: TusSweepDeps, now: Date = new Date()): Promise<number> {
  let removed = 0;
  for (;;) {
    const expired = await deps.db.tusUpload.findMany({
      where: { expiresAt: { lte: now } },
      orderBy: { expiresAt: "asc" },
      take: BATCH,
    });
    for (const row of expired) {
      if (!row.completedFileId) await deps.bytes.remove(row);
      const { count } = await deps.db.tusUpload.deleteMany({
        where: { id: row.id, expiresAt: { lte: now }, completedFileId: row.completedFileId },
      });
      removed += count;
      deps.forget?.(row.id);
    }
    if (expired.length < BATCH) return removed;
  }
}
