/**
 * One page of a workspace's files for GET /api/v1/files, plus the total that matches: read from the
 * kept counts when only `folder_no` (or nothing) narrows the list, counted when a search does.
 *
 *   const { rows, total } = await listFiles(app.database.sql, workspaceId, query);   // query: ListFilesQuery
 *
 * Filters (all combined with AND):
 * - `folder_no`: files directly in that folder of this workspace (not in its subfolders); a
 *   folder_no that names no folder here matches nothing (an empty page, not a 404). Empty values
 *   (`folder_no=`, `name=`, `path=`, `tags=`) are no filter, as HTML forms send them.
 * - `name`: case-insensitive substring of the file name; `%`, `_` and `\` are literal.
 * - `path`: a file path or a folder path, compared segment-wise: `photos`, `photos/` and
 *   `/photos/` all match `photos/cat.jpg` and `photos/2024/dog.png` (everything below the
 *   folder, at any depth), and `photos/cat.jpg` matches that file; `pho` matches neither. An
 *   empty path (`""`, `/`) is no filter.
 * - `tags`: comma-separated; files carrying ALL of them (exact, case-sensitive; GIN `@>`).
 *
 * Order: `sort` wins over `sort_field`/`sort_order`. Default `created_at` desc. `sort_field`
 * without `sort_order`: ascending for `name`, descending for the others (newest/largest first);
 * `sort_order` alone orders by `created_at`. Names sort case-insensitively (`lower(name)`, then
 * the exact name). Every order ends with `file_no` in the same direction, so rows that tie keep
 * one stable order across pages.
 *
 * Raw SQL (not Prisma's `contains`/`startsWith`) so LIKE escaping, case-insensitive name order
 * and the array containment are explicit and identical on PGlite and PostgreSQL.
 *
 * Deep pages: OFFSET makes PostgreSQL walk and discard every row before the page, so the last
 * page of 100,000 files cost about 4x page 1 (bench/RESULTS.md, bench 5). Every order is total
 * (it ends with file_no), so the second half of the list is the first half of the opposite order:
 * past `REVERSE_MIN_OFFSET`, the total is counted first and a page nearer the end than the start
 * is read in the opposite order from the end (OFFSET `total - offset - limit`) and flipped. The
 * middle of a very long list still costs O(offset), but only in index entries: every order has a
 * covering index (workspace_id, <sort columns>, file_no) (migration
 * 20261124015819_list_files_covering_indexes), the page's keys come from an index-only scan and
 * only its `limit` rows are read (a deferred join). Only keyset pagination would avoid the walk.
 * Below the threshold the rows and the total are read in parallel, as before.
 */
import type { ListFilesQuery } from "@trove/schema";
import type { RawQuery } from "../db/direct-sql.js";
import { isoTimestampSql } from "../db/iso-timestamp.js";
import { Prisma } from "../generated/prisma/client.js";
import { escapeLike } from "./escape-like.js";
import { fileCount, fileCountSql } from "./file-counts.js";
import type { FileListSource } from "./serialize-file.js";
import { unexpiredSql } from "./unexpired.js";

export type FileSortField = "name" | "size" | "created_at" | "updated_at";
export type SortOrder = "asc" | "desc";

export interface FileSort {
  field: FileSortField;
  order: SortOrder;
}

const COMBINED_SORTS: Record<NonNullable<ListFilesQuery["sort"]>, FileSort> = {
  name_asc: { field: "name", order: "asc" },
  name_desc: { field: "name", order: "desc" },
  size_asc: { field: "size", order: "asc" },
  size_desc: { field: "size", order: "desc" },
  created_at_asc: { field: "created_at", order: "asc" },
  created_at_desc: { field: "created_at", order: "desc" },
};

const SORT_FIELDS: Record<NonNullable<ListFilesQuery["sort_field"]>, FileSortField> = {
  file_size: "size",
  name: "name",
  created_at: "created_at",
  updated_at: "updated_at",
};

export function resolveFileSort(query: Pick<ListFilesQuery, "sort" | "sort_field" | "sort_order">): FileSort {
  if (query.sort) return COMBINED_SORTS[query.sort];
  const field = query.sort_field ? SORT_FIELDS[query.sort_field] : "created_at";
  const order = query.sort_order ?? (field === "name" ? "asc" : "desc");
  return { field, order };
}

/** `/photos//2024/` -> `photos/2024`; "" when nothing is left. */
export function normaliseFilterPath(path: string): string {
  return path
    .split("/")
    .filter((segment) => segment !== "")
    .join("/");
}

/** The ORDER BY terms of a sort, on the `files` row aliased `alias`. */
function orderByClause({ field, order }: FileSort, alias: "f" | "r"): Prisma.Sql {
  const direction = Prisma.raw(order === "asc" ? "ASC" : "DESC");
  const a = Prisma.raw(alias);
  switch (field) {
    case "name":
      return Prisma.sql`lower(${a}.name) ${direction}, ${a}.name ${direction}, ${a}.file_no ${direction}`;
    case "size":
      return Prisma.sql`${a}.size ${direction}, ${a}.file_no ${direction}`;
    case "updated_at":
      return Prisma.sql`${a}.updated_at ${direction}, ${a}.file_no ${direction}`;
    default:
      return Prisma.sql`${a}.created_at ${direction}, ${a}.file_no ${direction}`;
  }
}

function whereClause(workspaceId: string, query: ListFilesQuery): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`f.workspace_id = ${workspaceId}::uuid`];
  if (query.folder_no !== undefined && query.folder_no !== "") {
    // No such folder here: the subquery is NULL and nothing matches.
    conditions.push(
      Prisma.sql`f.folder_id = (SELECT d.id FROM folders d WHERE d.workspace_id = ${workspaceId}::uuid AND d.folder_no = ${query.folder_no})`,
    );
  }
  if (query.name !== undefined && query.name !== "") {
    conditions.push(Prisma.sql`f.name ILIKE ${`%${escapeLike(query.name)}%`}`);
  }
  if (query.path !== undefined) {
    const path = normaliseFilterPath(query.path);
    if (path !== "") {
      conditions.push(Prisma.sql`(f.path = ${path} OR f.path LIKE ${`${escapeLike(path)}/%`})`);
    }
  }
  if (query.tags !== undefined && query.tags.length > 0) {
    conditions.push(Prisma.sql`f.tags @> ${query.tags}::text[]`);
  }
  return Prisma.join(conditions, " AND ");
}

/**
 * Whether the query narrows by name, path or tags. Without those, the total is read from the
 * counts the write paths keep (src/files/file-counts.ts); with them, the matching rows are
 * counted (exact; the cost grows with the rows the filter has to look at).
 */
function searches(query: ListFilesQuery): boolean {
  return (
    (query.name !== undefined && query.name !== "") ||
    (query.path !== undefined && normaliseFilterPath(query.path) !== "") ||
    (query.tags !== undefined && query.tags.length > 0)
  );
}

function folderNoOf(query: ListFilesQuery): string | undefined {
  return query.folder_no !== undefined && query.folder_no !== "" ? query.folder_no : undefined;
}

interface CountRow {
  total: bigint | number;
}

/** Offsets below this are read forwards, in parallel with the count: skipping them is cheap. */
export const REVERSE_MIN_OFFSET = 1000;

function opposite(sort: FileSort): FileSort {
  return { field: sort.field, order: sort.order === "asc" ? "desc" : "asc" };
}

/**
 * `LIMIT n` as a literal and no OFFSET on the first page. With LIMIT as a parameter PostgreSQL
 * guesses a tenth of the rows for it, so a prepared page query (src/db/direct-sql.ts) would be
 * planned afresh on every request (a custom plan costs 0.25 ms to plan, more than running it);
 * with the literal, the cached generic plan is taken. `limit` is the schema's 1 to 100, so the
 * literals are few; an offset stays a parameter.
 */
function pageBounds(limit: number, skip: number): Prisma.Sql {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new Error(`page limit must be a positive integer: ${limit}`);
  const bounded = Prisma.raw(`LIMIT ${limit}`);
  return skip === 0 ? bounded : Prisma.sql`${bounded} OFFSET ${skip}::bigint`;
}

export async function listFiles(
  db: RawQuery,
  workspaceId: string,
  query: ListFilesQuery,
  { reverseMinOffset = REVERSE_MIN_OFFSET }: { reverseMinOffset?: number } = {},
): Promise<{ rows: FileListSource[]; total: number }> {
  const where = whereClause(workspaceId, query);
  const sort = resolveFileSort(query);
  const offset = (query.page - 1) * query.limit;
  // Deferred join: the page's keys first (an index-only scan of the sort's covering index when no
  // filter needs other columns), then only those rows. OFFSET still walks `skip` index entries,
  // but no longer fetches and sorts each row it skips.
  // With a kept count, the page's rows carry the total too: one statement, one round trip.
  const keptCount = searches(query) ? null : fileCountSql(workspaceId, folderNoOf(query));
  const page = (order: FileSort, limit: number, skip: number, withTotal = false) =>
    db.$queryRaw<Array<FileListSource & { total?: bigint | number }>>`
      SELECT r.id, r.file_no AS "fileNo", r.name, r.path, r.size, r.format, r.extension, r.width, r.height,
             ${isoTimestampSql(Prisma.sql`r.created_at`)} AS "createdAt", r.thumbnail_key AS "thumbnailKey", r.is_private AS "isPrivate",
             r.placeholder_thumbhash AS "placeholderThumbhash", r.placeholder_color AS "placeholderColor"
             ${withTotal && keptCount ? Prisma.sql`, (${keptCount}) AS total` : Prisma.empty}
      FROM (
        SELECT f.file_no FROM files f
        WHERE ${where}
        ORDER BY ${orderByClause(order, "f")}
        ${pageBounds(limit, skip)}
      ) k
      JOIN files r ON r.file_no = k.file_no
      -- A temporary file past its deadline is not listed, though the sweep has not deleted it
      -- yet (src/files/expire-files.ts). Filtered here, after the page's keys, so the keys stay an
      -- index-only scan: such a page may hold fewer rows than its limit until the sweep.
      WHERE ${unexpiredSql("r")}
      ORDER BY ${orderByClause(order, "r")}`;
  const count = async () => {
    if (!searches(query)) return fileCount(db, workspaceId, folderNoOf(query));
    const counted = await db.$queryRaw<CountRow[]>`SELECT count(*) AS total FROM files f WHERE ${where}`;
    return Number(counted[0]?.total ?? 0);
  };

  if (offset < reverseMinOffset && keptCount) {
    const rows = await page(sort, query.limit, offset, true);
    // An empty page has no row to carry the total.
    const total = rows.length > 0 ? Number(rows[0]?.total) : await count();
    return { rows: rows.map(({ total: _total, ...row }) => row), total };
  }
  if (offset < reverseMinOffset) {
    const [rows, total] = await Promise.all([page(sort, query.limit, offset), count()]);
    return { rows, total };
  }
  const total = await count();
  if (offset >= total) return { rows: [], total };
  const fromEnd = Math.max(0, total - offset - query.limit);
  if (fromEnd >= offset) return { rows: await page(sort, query.limit, offset), total };
  const rows = await page(opposite(sort), Math.min(query.limit, total - offset), fromEnd);
  return { rows: rows.reverse(), total };
}
