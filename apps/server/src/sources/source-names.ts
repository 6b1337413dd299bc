/**
 * The names a workspace's sources answer to: each source's live name, and its former names
 * (`source_aliases`), kept by a rename so delivery URLs already out in customers' pages keep
 * working (src/delivery/origin-delivery.ts redirects them to the current name).
 *
 *   await lockSourceNames(tx, workspaceId);               // first, in the transaction
 *   await assertNameFree(tx, workspaceId, name, sourceId); // 409 if another source answers to it
 *   await recordRename(tx, source, newName);               // old name becomes an alias
 *
 * The two sets never overlap within a workspace: a name is a live name or an alias of exactly one
 * source, so a delivery URL always means one source. Each table's unique index holds its own set;
 * across the two tables nothing in the database can, so every create and rename takes the
 * workspace row's lock first and the check-then-write runs one at a time per workspace. A source
 * may take back one of its own aliases (a rename undone); deleting a source frees its aliases
 * (they cascade with it).
 */
import { ERROR_MESSAGES } from "@trove/schema";
import { HttpError } from "../errors/http-error.js";
import type { Prisma } from "../generated/prisma/client.js";

type Tx = Prisma.TransactionClient;

export function duplicateName(cause?: unknown): HttpError {
  return new HttpError(409, ERROR_MESSAGES.sourceNameTaken, { cause });
}

/**
 * Serialises name changes of one workspace until the transaction ends. `FOR NO KEY UPDATE` does not
 * conflict with the key-share locks that inserts referencing the workspace take, so uploads and
 * other writes go on meanwhile.
 */
export async function lockSourceNames(tx: Tx, workspaceId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM workspaces WHERE id = ${workspaceId}::uuid FOR NO KEY UPDATE`;
}

/**
 * Throws the spec's 409 when `name` is the live name or an alias of a source other than
 * `sourceId` (none: a new source).
 */
export async function assertNameFree(
  tx: Tx,
  workspaceId: string,
  name: string,
  sourceId?: string,
): Promise<void> {
  const other = sourceId === undefined ? {} : { NOT: { id: sourceId } };
  const live = await tx.source.count({ where: { workspaceId, name, ...other } });
  if (live > 0) throw duplicateName();
  const alias = await tx.sourceAlias.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  if (alias && alias.sourceId !== sourceId) throw duplicateName();
}

/** `source` is renamed to `newName`: its old name becomes its alias, and `newName` is no longer one. */
export async function recordRename(
  tx: Tx,
  source: { id: string; workspaceId: string; name: string },
  newName: string,
): Promise<void> {
  await tx.sourceAlias.deleteMany({ where: { workspaceId: source.workspaceId, name: newName } });
  await tx.sourceAlias.create({
    data: { workspaceId: source.workspaceId, name: source.name, sourceId: source.id },
  });
}
