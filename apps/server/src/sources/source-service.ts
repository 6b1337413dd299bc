/**
 * Source persistence for one workspace: create, list, find, update (merge) and delete, with the
 * spec's errors thrown as `HttpError` (404 "Source not found", 409 "Origin name already exists in
 * this workspace", 400 invalid configuration). Secrets are sealed before they reach the database.
 *
 *   const ctx = { db: app.db, secretKey: app.config.secretKey, workspaceId: request.auth.workspaceId };
 *   const row = await createSource(ctx, body);        // body from parseCreateSourceBody
 *   const { rows, total } = await listSources(ctx, query);
 *
 * A name is taken by a live source or by another source's former name (./source-names.ts): both
 * are the spec's 409. Creates and renames check under the workspace's name lock, and the unique
 * index on (workspace_id, name) stays the last word: a P2002 becomes the 409 too.
 */
import type { CreateSourceBody, ListSourcesQuery, UpdateSourceBody } from "@trove/schema";
import { isUniqueViolation } from "../db/prisma-errors.js";
import { notFound } from "../errors/index.js";
import { isUuid } from "../errors/params.js";
import type { Prisma, PrismaClient, Source } from "../generated/prisma/client.js";
import {
  type ConfigurationRecord,
  configurationRecord,
  openConfiguration,
  sealConfiguration,
} from "./configuration-secrets.js";
import { mergeConfiguration } from "./merge-configuration.js";
import { forgetSourceCopies } from "./origins/origin-cache.js";
import { assertNameFree, duplicateName, lockSourceNames, recordRename } from "./source-names.js";
import { parseConfiguration } from "./validate-source-body.js";

export interface SourceContext {
  db: PrismaClient;
  /** The server's secret key (config.secretKey): seals and opens secret fields. */
  secretKey: Buffer;
  workspaceId: string;
}

function asJson(configuration: ConfigurationRecord): Prisma.InputJsonObject {
  return configuration as Prisma.InputJsonObject;
}

export async function createSource(ctx: SourceContext, body: CreateSourceBody): Promise<Source> {
  const configuration = sealConfiguration(ctx.secretKey, body.configuration as ConfigurationRecord);
  try {
    return await ctx.db.$transaction(async (tx) => {
      await lockSourceNames(tx, ctx.workspaceId);
      await assertNameFree(tx, ctx.workspaceId, body.name);
      return tx.source.create({
        data: {
          workspaceId: ctx.workspaceId,
          name: body.name,
          type: body.type,
          configuration: asJson(configuration),
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(error);
    throw error;
  }
}

/** `%`, `_` and `\` taken literally in a LIKE pattern (PostgreSQL's default escape is `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * One page of the workspace's sources, newest first (`created_at` desc, then `id` desc so rows
 * created in the same millisecond keep a stable order across pages), plus the total matching.
 */
export async function listSources(
  ctx: SourceContext,
  query: ListSourcesQuery,
): Promise<{ rows: Source[]; total: number }> {
  const where: Prisma.SourceWhereInput = { workspaceId: ctx.workspaceId };
  if (query.type) where.type = query.type;
  if (query.search) where.name = { contains: escapeLike(query.search), mode: "insensitive" };
  const [rows, total] = await ctx.db.$transaction([
    ctx.db.source.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.limit,
      take: query.limit,
    }),
    ctx.db.source.count({ where }),
  ]);
  return { rows, total };
}

/** The workspace's source with this id; a malformed id or another workspace's id is 404. */
export async function findSource(ctx: SourceContext, id: string): Promise<Source> {
  if (!isUuid(id)) throw notFound("sources");
  const row = await ctx.db.source.findFirst({ where: { id, workspaceId: ctx.workspaceId } });
  if (!row) throw notFound("sources");
  return row;
}

/** The plaintext configuration of a source (for code that uses the credentials, and tests). */
export async function readSourceConfiguration(ctx: SourceContext, id: string): Promise<ConfigurationRecord> {
  const row = await findSource(ctx, id);
  return openConfiguration(ctx.secretKey, row.configuration);
}

/**
 * PATCH: renames (the old name becomes an alias: ./source-names.ts), activates or deactivates,
 * and/or merges configuration fields (see ./merge-configuration.ts), validates the merged
 * configuration against the type, keeps the ciphertext of secrets not changed, and sets
 * `updated_at`. An empty body changes nothing and returns the source as it is. The row is locked
 * (SELECT ... FOR UPDATE) while merging, so concurrent PATCHes do not lose each other's fields; a
 * rename takes the workspace's name lock before it.
 */
export async function updateSource(ctx: SourceContext, id: string, body: UpdateSourceBody): Promise<Source> {
  if (!isUuid(id)) throw notFound("sources");
  if (body.name === undefined && body.configuration === undefined && body.is_active === undefined) {
    return findSource(ctx, id);
  }
  try {
    return await ctx.db.$transaction(async (tx) => {
      if (body.name !== undefined) await lockSourceNames(tx, ctx.workspaceId);
      const locked = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM sources WHERE id = ${id}::uuid AND workspace_id = ${ctx.workspaceId}::uuid FOR UPDATE`;
      if (locked.length === 0) throw notFound("sources");
      const current = await tx.source.findUniqueOrThrow({ where: { id } });

      const data: Prisma.SourceUpdateInput = { updatedAt: nextUpdatedAt(current) };
      if (body.name !== undefined && body.name !== current.name) {
        await assertNameFree(tx, ctx.workspaceId, body.name, id);
        await recordRename(tx, current, body.name);
        data.name = body.name;
      }
      if (body.is_active !== undefined) data.isActive = body.is_active;
      if (body.configuration !== undefined) {
        const stored = configurationRecord(current.configuration);
        const merged = mergeConfiguration(openConfiguration(ctx.secretKey, stored), body.configuration);
        const valid = parseConfiguration(current.type, merged.configuration) as ConfigurationRecord;
        data.configuration = asJson(sealConfiguration(ctx.secretKey, valid, stored, merged.keptSecrets));
      }
      // Copies read from the origin under the old configuration are never served again (the
      // version moves); their objects are deleted now rather than left to age.
      if (body.configuration !== undefined) await forgetSourceCopies(tx, id);
      return tx.source.update({ where: { id }, data });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(error);
    throw error;
  }
}

/** Now, but always later than the previous update, so `updated_at` moves on every update. */
function nextUpdatedAt(current: Source): Date {
  const previous = (current.updatedAt ?? current.createdAt).getTime();
  return new Date(Math.max(Date.now(), previous + 1));
}

export async function deleteSource(ctx: SourceContext, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound("sources");
  const count = await ctx.db.$transaction(async (tx) => {
    const owned = await tx.source.count({ where: { id, workspaceId: ctx.workspaceId } });
    if (owned === 0) return 0;
    await forgetSourceCopies(tx, id);
    return (await tx.source.deleteMany({ where: { id, workspaceId: ctx.workspaceId } })).count;
  });
  if (count === 0) throw notFound("sources");
}
