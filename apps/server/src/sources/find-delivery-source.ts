/**
 * The source a delivery URL's origin (`{workspace_no}-{name}`) names, read from the database on
 * every request: no instance keeps a copy, so a rename, a deactivation or a deletion holds on the
 * next request on every instance.
 *
 *   const found = await findDeliverySource(db, "ws7Kp2", "media");
 *   found.kind === "source"   // an active source by its live name: serve it
 *   found.kind === "renamed"  // a former name of an active source: redirect to `found.name`
 *   found.kind === "none"     // unknown, inactive, or the workspace is disabled: 404
 *
 * A live name is looked up first (one indexed query); only a miss reads the aliases.
 */
import type { PrismaClient, Source } from "../generated/prisma/client.js";

export type DeliverySource =
  | { kind: "source"; source: Source }
  | { kind: "renamed"; name: string }
  | { kind: "none" };

export async function findDeliverySource(
  db: PrismaClient,
  workspaceNo: string,
  name: string,
): Promise<DeliverySource> {
  const workspace = { workspaceNo, disabledAt: null };
  const source = await db.source.findFirst({ where: { name, workspace } });
  if (source) return source.isActive ? { kind: "source", source } : { kind: "none" };
  const alias = await db.sourceAlias.findFirst({
    where: { name, source: { workspace } },
    select: { source: { select: { name: true, isActive: true } } },
  });
  return alias?.source.isActive ? { kind: "renamed", name: alias.source.name } : { kind: "none" };
}
