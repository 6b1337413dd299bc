import * as z from "zod";
import { shortNoSchema, timestampSchema, uuidSchema } from "./common.js";

/** A folder's own name: no slashes, not a dot name, not blank. */
export const folderNameSchema = z
  .string()
  .min(1)
  .max(255)
  .refine((name) => !/[/\\\0]/.test(name), "name must not contain slashes or NUL")
  .refine((name) => name.trim().length > 0 && name !== "." && name !== "..", "name must not be blank");

/** Endpoint 10. */
export const createFolderBodySchema = z.object({
  name: folderNameSchema,
  parent_folder_no: shortNoSchema.optional(),
});
export type CreateFolderBody = z.infer<typeof createFolderBodySchema>;

export const createFolderResponseSchema = z.object({ name: z.string(), folder_no: z.string() });
export type CreateFolderResponse = z.infer<typeof createFolderResponseSchema>;

export const FOLDER_SORTS = ["name_asc", "name_desc", "created_at_asc", "created_at_desc"] as const;

/** Endpoint 11 query. */
export const listFoldersQuerySchema = z.object({
  parent_folder_no: z.string().max(64).optional(),
  name: z.string().max(255).optional(),
  sort: z.enum(FOLDER_SORTS).optional(),
});
export type ListFoldersQuery = z.infer<typeof listFoldersQuerySchema>;

export const folderListRowSchema = z.object({
  folder_no: z.string(),
  name: z.string(),
  created_at: timestampSchema,
  total_items: z.number().int().min(0),
  total_size: z.number().int().min(0),
});
export type FolderListRow = z.infer<typeof folderListRowSchema>;

export const listFoldersResponseSchema = z.object({ folders: z.array(folderListRowSchema) });
export type ListFoldersResponse = z.infer<typeof listFoldersResponseSchema>;

export const folderNoParamsSchema = z.object({ folderNo: shortNoSchema });

/** Endpoint 12 body. */
export const renameFolderBodySchema = z.object({ name: folderNameSchema });
export type RenameFolderBody = z.infer<typeof renameFolderBodySchema>;

/** Endpoint 12 response: the full folder record. `parent_folder` is null at the root. */
export const folderRecordSchema = z.object({
  id: uuidSchema,
  folder_no: z.string(),
  name: z.string(),
  parent_folder: uuidSchema.nullable(),
  workspace_id: uuidSchema,
  workspace_no: z.string(),
  is_delete: z.boolean(),
  is_active: z.boolean(),
  created_by: z.string().nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
  source: z.string(),
  path: z.string(),
  workspace: z.object({ workspace_no: z.string() }),
});
export type FolderRecord = z.infer<typeof folderRecordSchema>;
