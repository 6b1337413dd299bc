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
 * A live name is looked up first (one indexed query, which also reads the workspace's strict mode
 * for the transform, saving the delivery of a variant a query of its own); only a miss reads the
 * aliases.
 */
import type { PrismaClient, Source } from "../generated/prisma/client.js";

export type DeliverySource =
  | { kind: "source"; source: Source; strictTransforms: boolean }
  | { kind: "renamed"; name: string }
  | { kind: "none" };

export async function findDeliverySource(
  db: PrismaClient,
  workspaceNo: string,
  name: string,
): Promise<DeliverySource> {
  const workspace = { workspaceNo, disabledAt: null };
  const found = await db.source.findFirst({
    where: { name, workspace },
    include: { workspace: { select: { strictTransforms: true } } },
  });
  if (found) {
    const { workspace: owner, ...source } = found;
    return source.isActive
      ? { kind: "source", source, strictTransforms: owner.strictTransforms }
      : { kind: "none" };
  }
  const alias = await db.sourceAlias.findFirst({
    where: { name, source: { workspace } },
    select: { source: { select: { name: true, isActive: true } } },
  });
  return alias?.source.isActive ? { kind: "renamed", name: alias.source.name } : { kind: "none" };
}
