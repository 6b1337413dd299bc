/**
 * Trove's own: moving files between folders (`POST /api/v1/files/move`, endpoint 24). A move
 * changes only rows: a file's storage key does not depend on its folder, so its bytes stay where
 * they are and its delivery URL (`{assets_url}/{workspace_no}/{path}`) follows the new path at once.
 */
import * as z from "zod";
import { fileNoSchema, shortNoSchema } from "./common.js";

/** Most files one request moves. */
export const MAX_FILES_PER_MOVE = 100;

export const moveFilesBodySchema = z.strictObject({
  /** 1 to 100 distinct file numbers; all move or none does. */
  file_nos: z
    .array(fileNoSchema)
    .min(1)
    .max(MAX_FILES_PER_MOVE)
    .refine((nos) => new Set(nos).size === nos.length, { message: "file_nos must not repeat a file" }),
  /** The destination folder; null: the workspace's root. */
  folder_no: shortNoSchema.nullable(),
});
export type MoveFilesBody = z.input<typeof moveFilesBodySchema>;

export const moveFilesResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    /** Files whose folder changed (a file already in the destination counts too). */
    moved: z.number().int(),
  }),
});
