/**
 * `insertFileRow(db, row)`: inserts a file row unless one of its unique keys is taken (its path
 * in the workspace, in practice), and says whether another file of the workspace already has its
 * content hash, in one statement: one round trip, no interactive transaction needed for an
 * upload that creates no folder and enqueues no webhook (the statement is atomic on its own).
 * With `unless` (whether a webhook endpoint wants the upload), that question is answered in the
 * same statement, and nothing is inserted when the answer is yes.
 *
 * With `inFolder` (a folder path's segments), the same statement finds the folder chain, locks
 * every level `FOR SHARE` as `ensureFolderPath` does (src/folders/ensure-folder-path.ts: a
 * concurrent rename or delete of one of them waits for this insert's commit), and files the row
 * in the deepest level; when any level is missing it inserts nothing (`skipped`), and the caller
 * creates the chain in a transaction. An upload into an existing folder then costs what a root
 * upload costs: one round trip, no transaction (issue #37, bench row 4f).
 *
 * `ON CONFLICT DO NOTHING` (as `createManyAndReturn({ skipDuplicates: true })` would write it): a
 * taken path must not abort a surrounding transaction. The duplicate check reads the snapshot
 * the insert runs in, so it never sees the new row itself. Raw SQL rather than two Prisma
 * calls: on this path Prisma's query compiler and result mapping cost more CPU than the query.
 */
import type { RawQuery } from "../db/direct-sql.js";
import { type File, type Folder, Prisma } from "../generated/prisma/client.js";
import { quotaErrorOf } from "../usage/quota.js";
import { firstFileWithHash } from "./first-file-with-hash.js";

/** A transaction, Prisma, or the direct path (`app.database.sql`) outside a transaction. */
export type FileRowDb = RawQuery;

/** The columns an upload sets; the database fills `file_no` and the timestamps. */
export interface NewFileRow {
  id: string;
  workspaceId: string;
  folderId: string | null;
  name: string;
  path: string;
  storageKey: string;
  size: number;
  mimeType: string;
  format: string;
  extension: string;
  width: number | null;
  height: number | null;
  orientation: string | null;
  hash: string;
  tags: string[];
  metadata: Record<string, unknown>;
  customId: string | null;
  uploadSource: string;
  transformString: string | null;
  originalUrl: string | null;
  thumbnailKey: string | null;
  createdBy: string | null;
  isPrivate: boolean;
  /** A temporary file's lifetime, seconds: `expires_at` is the database's now() plus this. */
  expiresIn?: number | null;
  /**
   * A raster image, which gets a placeholder (src/placeholders/). A placeholder depends only on
   * the content, so when the file the duplicate check finds (the first of the workspace with the
   * same hash, ./first-file-with-hash.ts) already has one, this same statement copies it into the
   * new row; otherwise (that file's own is still being computed) it marks the row for the sweep.
   * Either way placeholders add no round trip to an upload, and a re-upload of known content
   * leaves the sweep nothing to write (an update of a `files` row touches every one of its indexes).
   */
  placeholderPending?: boolean;
  /** A video's duration (seconds) and codecs, as ./probe-uploaded-video.ts read them; unset: null. */
  duration?: number | null;
  videoCodec?: string | null;
  audioCodec?: string | null;
}

/** The file's columns (null when nothing was inserted), then the folder's, prefixed `folder.`. */
type InsertedRow = { isDuplicate: boolean; skip: boolean } & Record<string, unknown>;

const NEVER = Prisma.sql`false`;

export interface InsertFileRowOptions {
  /**
   * A condition (`subscribedSql`) under which nothing is inserted: the caller must then insert
   * in a transaction with its webhook deliveries. Decided in the insert's own snapshot, so an
   * upload that needs no transaction costs one round trip.
   */
  unless?: Prisma.Sql;
  /**
   * The segments of an existing folder path (cleaned and checked: src/folders/folder-path.ts): the
   * row goes into the deepest folder, whatever `folderId` says, and nothing is inserted when a
   * level is missing. `path` must already start with the joined segments and a slash.
   */
  inFolder?: string[];
}

export interface InsertedFileRow {
  /** Null when the path was taken, or when `unless` held. */
  file: File | null;
  isDuplicate: boolean;
  /** Whether `unless` held or a level of `inFolder` was missing (nothing was inserted). */
  skipped: boolean;
  /** The folder `inFolder` named, found (and locked) by the statement; null without it or if missing. */
  folder: Folder | null;
}

/** The folder's columns are prefixed so they do not clash with the file's in the one result row. */
const FOLDER_PREFIX = "folder.";

const FOLDER_COLUMNS = Prisma.sql`fo.id AS "folder.id", fo.folder_no AS "folder.folderNo",
  fo.workspace_id AS "folder.workspaceId", fo.parent_id AS "folder.parentId", fo.name AS "folder.name",
  fo.path AS "folder.path", fo.created_by AS "folder.createdBy", fo.is_active AS "folder.isActive",
  fo.is_delete AS "folder.isDelete", fo.created_at AS "folder.createdAt", fo.updated_at AS "folder.updatedAt"`;

/**
 * The CTEs that find and lock the chain of `segments` (every level, like ensureFolderPath), and
 * `target`, its deepest level when the whole chain exists. The lock re-reads a row a concurrent
 * rename changed, which then no longer matches its path: the chain is incomplete, and the caller
 * falls back to the transaction that creates the requested path afresh.
 */
function folderChainSql(workspaceId: string, segments: string[]): Prisma.Sql {
  const levels = segments.map((_, depth) => segments.slice(0, depth + 1).join("/"));
  return Prisma.sql`chain AS (
      SELECT * FROM folders
       WHERE workspace_id = ${workspaceId}::uuid AND path = ANY(${levels}::text[])
       FOR SHARE
    ), target AS (
      SELECT * FROM chain
       WHERE path = ${levels[levels.length - 1]} AND (SELECT count(*) FROM chain) = ${levels.length}::int
    ), `;
}

export async function insertFileRow(
  db: FileRowDb,
  row: NewFileRow,
  options: InsertFileRowOptions = {},
): Promise<InsertedFileRow> {
  const unless = options.unless ?? NEVER;
  const inFolder = options.inFolder;
  const chain = inFolder ? folderChainSql(row.workspaceId, inFolder) : Prisma.empty;
  const skipWhen = inFolder ? Prisma.sql`(${unless}) OR NOT EXISTS (SELECT 1 FROM target)` : unless;
  const folderId = inFolder ? Prisma.sql`(SELECT id FROM target)` : Prisma.sql`${row.folderId}::uuid`;
  const folderColumns = inFolder ? Prisma.sql`, ${FOLDER_COLUMNS}` : Prisma.empty;
  const folderJoin = inFolder ? Prisma.sql`LEFT JOIN target fo ON true` : Prisma.empty;
  // A quota the insert would pass fails the statement in its trigger (src/usage/quota.ts): a 403
  // that rolls back a surrounding transaction, and tells registerFile to remove the bytes.
  const [result] = await db.$queryRaw<InsertedRow[]>`
    WITH ${chain}skip_insert AS (
      SELECT ${skipWhen} AS skip
    ), same_content AS (${firstFileWithHash(
      row.workspaceId,
      row.hash,
      Prisma.sql`placeholder_thumbhash, placeholder_color, placeholder_data_url`,
    )}
    ), duplicate AS (
      SELECT EXISTS (SELECT 1 FROM same_content) AS is_duplicate
    ), known_placeholder AS (
      SELECT placeholder_thumbhash, placeholder_color, placeholder_data_url FROM same_content
       WHERE ${row.placeholderPending === true}::boolean
         AND placeholder_thumbhash IS NOT NULL AND placeholder_data_url IS NOT NULL
    ), inserted AS (
      INSERT INTO files (
        id, workspace_id, folder_id, name, path, storage_key, size, mime_type, format, extension,
        width, height, orientation, hash, tags, metadata, custom_id, upload_source,
        transform_string, original_url, thumbnail_key, created_by, is_private, created_at, updated_at,
        expires_at, placeholder_thumbhash, placeholder_color, placeholder_data_url, placeholder_attempts,
        duration, video_codec, audio_codec
      )
      SELECT
        ${row.id}::uuid, ${row.workspaceId}::uuid, ${folderId}, ${row.name}, ${row.path},
        ${row.storageKey}, ${row.size}::bigint, ${row.mimeType}, ${row.format}, ${row.extension},
        ${row.width}::int, ${row.height}::int, ${row.orientation}, ${row.hash}, ${row.tags}::text[],
        ${JSON.stringify(row.metadata)}::jsonb, ${row.customId}, ${row.uploadSource},
        ${row.transformString}, ${row.originalUrl}, ${row.thumbnailKey}, ${row.createdBy}::uuid,
        ${row.isPrivate}::boolean, now(), now(),
        now() + ${row.expiresIn ?? null}::int * interval '1 second',
        k.placeholder_thumbhash, k.placeholder_color, k.placeholder_data_url,
        CASE WHEN ${row.placeholderPending === true}::boolean AND k.placeholder_thumbhash IS NULL THEN 0 END,
        ${row.duration ?? null}::double precision, ${row.videoCodec ?? null}, ${row.audioCodec ?? null}
      FROM (SELECT 1) AS one LEFT JOIN known_placeholder k ON true
      WHERE NOT (SELECT skip FROM skip_insert)
      ON CONFLICT DO NOTHING
      RETURNING id, file_no AS "fileNo", workspace_id AS "workspaceId", folder_id AS "folderId",
        name, path, storage_key AS "storageKey", size, mime_type AS "mimeType", format, extension,
        width, height, orientation, hash, tags, metadata, custom_id AS "customId",
        upload_source AS "uploadSource", transform_string AS "transformString",
        original_url AS "originalUrl", thumbnail_key AS "thumbnailKey", is_private AS "isPrivate",
        is_active AS "isActive", is_delete AS "isDelete", created_by AS "createdBy",
        created_at AS "createdAt", updated_at AS "updatedAt", expires_at AS "expiresAt",
        placeholder_thumbhash AS "placeholderThumbhash", placeholder_color AS "placeholderColor",
        placeholder_data_url AS "placeholderDataUrl", placeholder_attempts AS "placeholderAttempts",
        duration, video_codec AS "videoCodec", audio_codec AS "audioCodec"
    )
    SELECT s.skip, d.is_duplicate AS "isDuplicate", i.*${folderColumns}
    FROM skip_insert s CROSS JOIN duplicate d LEFT JOIN inserted i ON true ${folderJoin}`.catch(
    (error: unknown) => {
      throw quotaErrorOf(error) ?? error;
    },
  );
  if (!result) throw new Error("insertFileRow: no result row");
  const { isDuplicate, skip, ...columns } = result;
  const file: Record<string, unknown> = {};
  const folder: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(columns)) {
    if (key.startsWith(FOLDER_PREFIX)) folder[key.slice(FOLDER_PREFIX.length)] = value;
    else file[key] = value;
  }
  return {
    file: file.id == null ? null : (file as unknown as File),
    isDuplicate,
    skipped: skip === true,
    folder: folder.id == null ? null : (folder as unknown as Folder),
  };
}
