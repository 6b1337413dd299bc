/**
 * `firstFileWithHash(workspaceId, hash, columns)`: the first file of a workspace with a content
 * hash (an upload's duplicate check, and the placeholder that file may already have), in a query
 * shape whose plan cannot degrade whatever the hashes in the table look like.
 *
 * The plain shape, `WHERE workspace_id = $1 AND hash = $2 LIMIT 1` (or inside `EXISTS`), is a
 * prepared statement on the direct path (src/db/direct-sql.ts). After five runs PostgreSQL may keep
 * a generic plan, costed for an average hash; when one content dominates a workspace (a
 * placeholder image uploaded 20,000 times) the average hash looks common, and a sequential scan
 * that stops at the first match looks cheapest. For bytes the workspace does not hold, that scan
 * reads every row (4.5 ms instead of 0.03 ms at 48,752 rows; issue #37).
 *
 * Here the same condition is written as a range on the `(workspace_id, hash)` index, ordered by
 * it, with `LIMIT 1`: no scan that stops early can give that order, so every plan other than the
 * index's needs a full read and a sort, and the index wins at any distribution. `EXISTS` would
 * drop the order and the limit (they do not change its answer), so callers wrap it as a FROM
 * subquery, which keeps both. The ORDER BY is on the index's columns, which equality would make
 * redundant and the planner would discard: hence the pair of row comparisons, not `=`. No other
 * condition goes inside: a filter few rows pass (no placeholder yet) would make a full scan and a
 * one-row sort look cheap again, so callers filter the one row this returns.
 */
import { Prisma } from "../generated/prisma/client.js";

export function firstFileWithHash(
  workspaceId: string,
  hash: string,
  columns: Prisma.Sql = Prisma.sql`1`,
): Prisma.Sql {
  return Prisma.sql`
    SELECT ${columns} FROM files
     WHERE (workspace_id, hash) >= (${workspaceId}::uuid, ${hash}::text)
       AND (workspace_id, hash) <= (${workspaceId}::uuid, ${hash}::text)
     ORDER BY workspace_id, hash
     LIMIT 1`;
}
