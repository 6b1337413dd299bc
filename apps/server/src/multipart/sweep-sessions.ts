/**
 * Expiry of multipart sessions and their stored parts.
 *
 * `sweepExpiredSessions(deps, now?)` (deps: `app.multipartDeps`) finds sessions past `expires_at` that were never
 * completed (`pending`, or `completing` untouched for COMPLETING_STALE_MS: its instance died),
 * claims each with a conditional update to `expired` (so with several instances sweeping, each
 * session is handled once, and a complete racing the sweep either wins the claim or sees
 * "Session expired"), then aborts its storage upload (fs: the `.multipart/<id>` directory; s3:
 * AbortMultipartUpload, tolerated where the store lacks it), deletes an object a failed complete
 * may have assembled, and deletes the part records (./end-session.ts). Once that is done, a
 * token's session gives back the count it reserved at start. When storage cannot be reached the
 * session goes back to its previous status, so the next sweep tries again (its reservation still
 * held; an instance dying between the claim and the release keeps one count of that token).
 *
 * It also removes uploads the store holds with no live session (fs only: `listPending`), older
 * than `orphanGraceMs`: left by a crash between `begin` and the session insert, or by a sweep
 * that died after its claim.
 *
 * Every instance with workers runs it every `config.multipart.sweepIntervalMs`
 * (src/multipart/sweep-timer.ts, started in src/jobs/start-workers.ts).
 */
import { releaseUploadToken } from "../keys/upload-tokens.js";
import { sweepOrphanObjects } from "../storage/sweep-orphan-objects.js";
import { COMPLETING_STALE_MS } from "./complete-session.js";
import { releaseStaged } from "./end-session.js";
import type { MultipartDeps } from "./multipart-deps.js";

const DEFAULT_BATCH_SIZE = 100;
const ORPHAN_LOOKUP_CHUNK = 500;

export interface SweepOptions {
  /** Sessions claimed per query (100). */
  batchSize?: number;
  /** Minimum age of a store upload without a live session before it is removed (config.orphanGraceMs). */
  orphanGraceMs?: number;
}

export interface SweepResult {
  /** Sessions marked expired, their storage released. */
  expired: number;
  /** Sessions whose storage could not be released this time (left for the next sweep). */
  failed: number;
  /** Store uploads without a live session that were removed. */
  orphans: number;
  /** Stored file and thumbnail objects that no row points at, removed (src/storage/sweep-orphan-objects.ts). */
  orphanObjects: number;
}

export async function sweepExpiredSessions(
  deps: MultipartDeps,
  now: Date = new Date(),
  options: SweepOptions = {},
): Promise<SweepResult> {
  const { db, storage, log } = deps;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const staleBefore = new Date(now.getTime() - COMPLETING_STALE_MS);
  const result: SweepResult = { expired: 0, failed: 0, orphans: 0, orphanObjects: 0 };
  const failedIds: string[] = [];

  const expiredWhere = {
    expiresAt: { lt: now },
    OR: [{ status: "pending" as const }, { status: "completing" as const, updatedAt: { lt: staleBefore } }],
  };
  for (;;) {
    const batch = await db.multipartSession.findMany({
      where: { ...expiredWhere, ...(failedIds.length > 0 ? { id: { notIn: failedIds } } : {}) },
      select: { id: true, status: true, storageKey: true, storageUploadId: true, uploadTokenId: true },
      orderBy: { expiresAt: "asc" },
      take: batchSize,
    });
    for (const session of batch) {
      const { count } = await db.multipartSession.updateMany({
        where: { id: session.id, ...expiredWhere },
        data: { status: "expired" },
      });
      if (count !== 1) continue; // completed, or claimed by another sweeper meanwhile
      try {
        await releaseStaged(deps, session);
        const tokenId = session.uploadTokenId;
        if (tokenId) await db.$transaction((tx) => releaseUploadToken(tx, tokenId));
        result.expired++;
      } catch (error) {
        log.warn({ err: error, sessionId: session.id }, "multipart sweep: storage not released; will retry");
        await db.multipartSession.updateMany({
          where: { id: session.id, status: "expired" },
          data: { status: session.status },
        });
        failedIds.push(session.id);
        result.failed++;
      }
    }
    if (batch.length < batchSize) break;
  }

  const graceMs = options.orphanGraceMs ?? deps.config.orphanGraceMs;
  result.orphans = await sweepOrphanUploads(deps, now, graceMs);
  result.orphanObjects = await sweepOrphanObjects({ db, storage }, now, graceMs);
  if (result.expired + result.failed + result.orphans + result.orphanObjects > 0)
    log.info({ ...result }, "sweep");
  return result;
}

async function sweepOrphanUploads(deps: MultipartDeps, now: Date, graceMs: number): Promise<number> {
  const { store, db, log } = deps;
  if (!store.listPending) return 0;
  const cutoff = now.getTime() - graceMs;
  const candidates: Array<{ key: string; uploadId: string }> = [];
  for await (const upload of store.listPending()) {
    if (upload.createdAt.getTime() < cutoff) candidates.push({ key: upload.key, uploadId: upload.uploadId });
  }
  let removed = 0;
  for (let i = 0; i < candidates.length; i += ORPHAN_LOOKUP_CHUNK) {
    const chunk = candidates.slice(i, i + ORPHAN_LOOKUP_CHUNK);
    const live = await db.multipartSession.findMany({
      where: {
        storageUploadId: { in: chunk.map((c) => c.uploadId) },
        status: { in: ["pending", "completing"] },
      },
      select: { storageUploadId: true },
    });
    const liveIds = new Set(live.map((s) => s.storageUploadId));
    for (const upload of chunk) {
      if (liveIds.has(upload.uploadId)) continue;
      try {
        await store.abort(upload);
        removed++;
      } catch (error) {
        log.warn({ err: error, uploadId: upload.uploadId }, "multipart sweep: orphan upload not removed");
      }
    }
  }
  return removed;
}
