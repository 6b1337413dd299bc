/**
 * The delivery host's view of named transforms and strict mode: the transform of a delivery URL
 * with each `t_<name>` step replaced by the workspace's definition.
 *
 *   await resolveTransform(db, workspaceId, "t_card/e_grayscale", { signed: false })
 *     -> "w_400,h_300,c_fill,f_auto/e_grayscale"
 *   "t_card,e_grayscale" (the recipe, then the rest of its step)  -> the same
 *   strict workspace, "t_card,q_90"     -> 403: q_90 is a step of the caller's choosing
 *   unknown name                       -> 400 "Unknown named transform t_x" (INVALID_TRANSFORM)
 *   strict workspace, a plain step     -> 403, unless the URL is signed or asks for the thumbnail
 *
 * The thumbnail (THUMBNAIL_TRANSFORM, as file responses write it) passes strict mode: the API
 * hands its URL out for every image, and it is one fixed size, not a caller's choice.
 *
 * At most one query (none for a signed URL without named steps, nor for the thumbnail): the
 * workspace's strict flag and the definitions of the names used, read together by primary key.
 * There is no cache, so a change made by the CLI on one instance holds at once on every other.
 */
import { buildTransform, isNamedStep, parseTransform, TransformParseError } from "@trove/schema";
import { HttpError } from "../errors/index.js";
import { THUMBNAIL_TRANSFORM } from "../files/file-urls.js";
import type { PrismaClient } from "../generated/prisma/client.js";

export interface ResolveTransformOptions {
  /** The URL carries a valid signature: strict mode lets any transform through. */
  signed: boolean;
  /**
   * The workspace's strict mode, when the caller has already read the workspace row (the
   * delivery host has): a transform without named steps then needs no query at all.
   */
  strict?: boolean;
}

export const STRICT_TRANSFORMS_MESSAGE =
  "This workspace serves named transforms only (t_<name>) or signed URLs";

type Row = { strict: boolean; name: string | null; transform: string | null };

const invalid = (message: string, cause?: unknown) =>
  new HttpError(400, message, { errorCode: "INVALID_TRANSFORM", cause });

/**
 * `transform` (as it appears in the URL, not empty) with its named steps expanded. The result
 * is valid and ready for canonicalizeTransform; it has no named steps. Throws HttpError 400
 * (grammar, unknown name, expansion over the grammar's limits) or 403 (strict mode).
 */
export async function resolveTransform(
  db: Pick<PrismaClient, "$queryRaw">,
  workspaceId: string,
  transform: string,
  options: ResolveTransformOptions,
): Promise<string> {
  const steps = parseOrThrow(transform);
  const names = [...new Set(steps.filter(isNamedStep).map((step) => step.t))];
  const allNamed = names.length > 0 && steps.every(isNamedStep);
  if (names.length === 0 && (options.signed || transform === THUMBNAIL_TRANSFORM)) return transform;
  if (names.length === 0 && options.strict !== undefined) {
    if (options.strict) throw new HttpError(403, STRICT_TRANSFORMS_MESSAGE);
    return transform;
  }

  const rows = await db.$queryRaw<Row[]>`
    SELECT w.strict_transforms AS strict, n.name, n.transform
    FROM workspaces w
    LEFT JOIN named_transforms n ON n.workspace_id = w.id AND n.name = ANY(${names}::text[])
    WHERE w.id = ${workspaceId}::uuid`;

  if (!allNamed && !options.signed && rows[0]?.strict === true) {
    throw new HttpError(403, STRICT_TRANSFORMS_MESSAGE);
  }
  if (names.length === 0) return transform;

  const definitions = new Map(
    rows.flatMap((row) => (row.name && row.transform ? [[row.name, row.transform]] : [])),
  );
  const missing = names.find((name) => !definitions.has(name));
  if (missing !== undefined) throw invalid(`Unknown named transform t_${missing}`);

  // Written from the parsed steps, not the URL's segments: `t_card,e_blur:20` is one segment
  // but two steps (the recipe, then the rest). The other steps are written canonically, which is
  // what the caller does with the result anyway; one that does nothing is left out.
  try {
    const expanded = steps
      .map((step) => (isNamedStep(step) ? (definitions.get(step.t) as string) : buildTransform(step)))
      .filter((text) => text !== "")
      .join("/");
    parseTransform(expanded);
    return expanded;
  } catch (error) {
    // Within the grammar's limits as written, over them once written out: 10 names of 10 steps,
    // or a step whose canonical percent-encoding (`_` → `%5F`) is longer than 8192.
    if (error instanceof TransformParseError) {
      throw invalid(`Once its named transforms are written out: ${error.message}`, error);
    }
    throw error;
  }
}

function parseOrThrow(transform: string) {
  try {
    return parseTransform(transform);
  } catch (error) {
    if (error instanceof TransformParseError) throw invalid(error.message, error);
    throw error;
  }
}
