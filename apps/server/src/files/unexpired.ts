/**
 * The files API's read-time rule for temporary files: a file past its `expires_at` is not found
 * (404), whether or not the expiry sweep (./expire-files.ts) has deleted it yet, so the sweep's
 * latency never shows an expired file. Delivery applies the same rule (src/delivery/access-check.ts),
 * and the statements written by hand through unexpiredSql (./list-files.ts, rename).
 *
 *   db.file.findFirst({ where: { workspaceId, fileNo, ...unexpired() } })
 */
import { Prisma } from "../generated/prisma/client.js";

export function unexpired(now: Date = new Date()): Prisma.FileWhereInput {
  return { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
}

/**
 * The same rule in raw SQL, on the database's clock (the one `expires_at` was set by), for the
 * statements written by hand: `WHERE ... AND ${unexpiredSql("f")}`. `table` is the alias of
 * `files` in that statement, a literal of the caller's, never input.
 */
export function unexpiredSql(table: string): Prisma.Sql {
  return Prisma.raw(`(${table}.expires_at IS NULL OR ${table}.expires_at > now())`);
}
