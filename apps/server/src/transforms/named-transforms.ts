/**
 * A workspace's named transforms and its strict mode, as the `trove-server transforms` CLI
 * manages them. Delivery reads them through resolveTransform (./resolve-transform.ts).
 *
 *   await setNamedTransform(db, workspaceId, "card", "h_300,w_400,f_auto")  // stores w_400,h_300,c_fill,f_auto
 *   await setNamedTransform(db, workspaceId, "card", "t_other")   // NamedTransformError: no named steps
 *   await setStrictTransforms(db, workspaceId, true)
 */
import {
  canonicalizeTransform,
  isNamedStep,
  isNamedTransformName,
  MAX_NAMED_TRANSFORM_LENGTH,
  parseTransform,
  TransformParseError,
} from "@trove/schema";
import type { NamedTransform, PrismaClient } from "../generated/prisma/client.js";

/** A name or definition that cannot be stored, or a name that is not there to remove. */
export class NamedTransformError extends Error {
  override name = "NamedTransformError";
}

export type NamedTransformDb = Pick<PrismaClient, "namedTransform" | "workspace">;

/** The name without its `t_`; `t_card` is accepted too, since that is how URLs write it. */
export function checkName(name: string): string {
  const bare = name.startsWith("t_") ? name.slice(2) : name;
  if (!isNamedTransformName(bare)) {
    throw new NamedTransformError(
      `${JSON.stringify(name)} is not a transform name (1 to ${MAX_NAMED_TRANSFORM_LENGTH} of a-z, 0-9, _ and -)`,
    );
  }
  return bare;
}

/**
 * The canonical form of a definition. It must be valid and do something (a definition that
 * canonicalises to "" would make `t_name` a no-op). Named steps are refused: expanding once is
 * then enough, with no cycles and no chains of lookups at delivery.
 */
export function checkDefinition(transform: string): string {
  let canonical: string;
  try {
    canonical = canonicalizeTransform(transform);
  } catch (error) {
    if (error instanceof TransformParseError)
      throw new NamedTransformError(`Invalid transform: ${error.message}`);
    throw error;
  }
  if (canonical === "")
    throw new NamedTransformError(`${transform} does nothing: give a transform that changes the image`);
  const named = parseTransform(canonical).find(isNamedStep);
  if (named) {
    throw new NamedTransformError(
      `A named transform cannot use another one (t_${named.t}): write its steps out`,
    );
  }
  return canonical;
}

/** Creates or replaces `name`; returns the stored row (its transform is canonical). */
export async function setNamedTransform(
  db: NamedTransformDb,
  workspaceId: string,
  name: string,
  transform: string,
): Promise<NamedTransform> {
  const bare = checkName(name);
  const canonical = checkDefinition(transform);
  return db.namedTransform.upsert({
    where: { workspaceId_name: { workspaceId, name: bare } },
    create: { workspaceId, name: bare, transform: canonical },
    update: { transform: canonical },
  });
}

/** Removes `name`; a name that does not exist is an error, so a typo does not pass silently. */
export async function removeNamedTransform(
  db: NamedTransformDb,
  workspaceId: string,
  name: string,
): Promise<void> {
  const bare = checkName(name);
  const { count } = await db.namedTransform.deleteMany({ where: { workspaceId, name: bare } });
  if (count === 0) throw new NamedTransformError(`No named transform t_${bare} in this workspace`);
}

export function listNamedTransforms(db: NamedTransformDb, workspaceId: string): Promise<NamedTransform[]> {
  return db.namedTransform.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
}

export async function setStrictTransforms(
  db: NamedTransformDb,
  workspaceId: string,
  strict: boolean,
): Promise<void> {
  await db.workspace.update({ where: { id: workspaceId }, data: { strictTransforms: strict } });
}
