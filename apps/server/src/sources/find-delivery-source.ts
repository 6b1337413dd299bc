/**
 * The source a delivery URL's origin (`{workspace_no}-{name}`) names, read from the database on
 * every request: no instance keeps a copy, so a rename, a deactivation or a deletion holds on the
 * next request on every instance.
 *
 *   const found = await findDeliverySource({ db, sql }, "ws7Kp2", "media");
 *   found.kind === "source"   // an active source by its live name: serve it
 *   found.kind === "renamed"  // a former name of an active source: redirect to `found.name`
 *   found.kind === "none"     // unknown, inactive, or the workspace is disabled: 404
 *
 * A live name is looked up first: one indexed statement on the direct path (src/db/direct-sql.ts:
 * it runs on every source request, where Prisma's query interpreter cost more CPU than the
 * statement), which also reads the workspace's strict mode for the transform. Only a miss reads
 * the aliases, through Prisma.
 */
import type { RawQuery } from "../db/direct-sql.js";
import type { PrismaClient, Source } from "../generated/prisma/client.js";

export type DeliverySource =
  | { kind: "source"; source: Source; strictTransforms: boolean }
  | { kind: "renamed"; name: string }
  | { kind: "none" };

export async function findDeliverySource(
  { db, sql }: { db: PrismaClient; sql: RawQuery },
  workspaceNo: string,
  name: string,
): Promise<DeliverySource> {
  const [found] = await sql.$queryRaw<Array<Source & { strictTransforms: boolean }>>`
    SELECT s.id::text AS id, s.workspace_id::text AS "workspaceId", s.name, s.type::text AS type,
           s.configuration, s.is_active AS "isActive", s.created_at AS "createdAt",
           s.updated_at AS "updatedAt", w.strict_transforms AS "strictTransforms"
      FROM sources s
      JOIN workspaces w ON w.id = s.workspace_id
     WHERE w.workspace_no = ${workspaceNo} AND w.disabled_at IS NULL AND s.name = ${name}`;
  if (found) {
    const { strictTransforms, ...source } = found;
    return source.isActive ? { kind: "source", source, strictTransforms } : { kind: "none" };
  }
  const workspace = { workspaceNo, disabledAt: null };
  const alias = await db.sourceAlias.findFirst({
    where: { name, source: { workspace } },
    select: { source: { select: { name: true, isActive: true } } },
  });
  return alias?.source.isActive ? { kind: "renamed", name: alias.source.name } : { kind: "none" };
}
