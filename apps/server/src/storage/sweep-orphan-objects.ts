/**
 * Removes stored objects that no row points at: a file written by an upload whose
 * process died before its row was committed (direct uploads store the bytes first, then the row).
 * Run by the recurring sweep (src/multipart/sweep-sessions.ts).
 *
 * Only keys of the shape uploads write are considered (`<uuid>/<uuid>/<name>`), only when older than `graceMs` (an upload in progress has not
 * committed its row yet), and a key is kept while a file row or an unfinished multipart session
 * (whose assembled object waits for its row) names it. Cached delivery variants are removed with
 * their file (src/files/delete-objects-job.ts), not here. Listing walks the whole store: on a
 * large S3 bucket, prefer a lifecycle rule and a long sweep interval.
 */
import type { PrismaClient } from "../generated/prisma/client.js";
import type { StorageDriver } from "./driver.js";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const UPLOAD_KEY = new RegExp(`^${UUID}/${UUID}/[^/]+$`);
const LOOKUP_CHUNK = 500;

export interface OrphanSweepDeps {
  db: Pick<PrismaClient, "file" | "multipartSession">;
  storage: Pick<StorageDriver, "list" | "delete">;
}

/** Deletes unreferenced upload objects older than `graceMs`; returns how many. */
export async function sweepOrphanObjects(deps: OrphanSweepDeps, now: Date, graceMs: number): Promise<number> {
  const cutoff = now.getTime() - graceMs;
  const candidates: string[] = [];
  for await (const object of deps.storage.list("")) {
    if (UPLOAD_KEY.test(object.key) && object.modifiedAt.getTime() < cutoff) candidates.push(object.key);
  }
  let removed = 0;
  for (let i = 0; i < candidates.length; i += LOOKUP_CHUNK) {
    const chunk = candidates.slice(i, i + LOOKUP_CHUNK);
    const [files, sessions] = await Promise.all([
      deps.db.file.findMany({
        where: { storageKey: { in: chunk } },
        select: { storageKey: true },
      }),
      deps.db.multipartSession.findMany({
        where: { storageKey: { in: chunk }, status: { in: ["pending", "completing"] } },
        select: { storageKey: true },
      }),
    ]);
    const live = new Set<string | null>([
      ...files.map((file) => file.storageKey),
      ...sessions.map((session) => session.storageKey),
    ]);
    for (const key of chunk) {
      if (live.has(key)) continue;
      await deps.storage.delete(key);
      removed++;
    }
  }
  return removed;
}
