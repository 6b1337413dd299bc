/**
 * The files API's read-time rule for temporary files: a file past its `expires_at` is not found
 * (404), whether or not the expiry sweep (./expire-files.ts) has deleted it yet, so the sweep's
 * latency never shows an expired file. Delivery applies the same rule (src/delivery/access-check.ts),
 * and the file list in its statement (./list-files.ts).
 *
 *   db.file.findFirst({ where: { workspaceId, fileNo, ...unexpired() } })
 */
import type { Prisma } from "../generated/prisma/client.js";

export function unexpired(now: Date = new Date()): Prisma.FileWhereInput {
  return { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
}
