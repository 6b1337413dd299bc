import * as z from "zod";
import {
  commaListSchema,
  fileNoSchema,
  limitQuerySchema,
  pageQuerySchema,
  timestampSchema,
  uuidSchema,
} from "./common.js";
import { listPlaceholderSchema, placeholderSchema } from "./placeholder.js";
import { checkDeliveryTransform } from "./video/delivery-transform.js";
import { streamingStepHeights } from "./video/streaming-ladder.js";

export const FILE_SORT_FIELDS = ["file_size", "name", "created_at", "updated_at"] as const;
export const SORT_ORDERS = ["asc", "desc"] as const;
export const FILE_SORTS = [
  "name_asc",
  "name_desc",
  "size_asc",
  "size_desc",
  "created_at_asc",
  "created_at_desc",
] as const;

/** Endpoint 6 query. Both sort forms are accepted; when both are sent, the combined `sort` wins. */
export const listFilesQuerySchema = z.object({
  page: pageQuerySchema,
  limit: limitQuerySchema(20),
  sort_field: z.enum(FILE_SORT_FIELDS).optional(),
  sort_order: z.enum(SORT_ORDERS).optional(),
  sort: z.enum(FILE_SORTS).optional(),
  folder_no: z.string().max(64).optional(),
  name: z.string().max(255).optional(),
  path: z.string().max(1024).optional(),
  tags: commaListSchema.optional(),
});
export type ListFilesQuery = z.infer<typeof listFilesQuerySchema>;
export type ListFilesQueryInput = z.input<typeof listFilesQuerySchema>;

/** The list row. `thumbanil` is misspelled in the wire format and must stay so. */
export const fileListRowSchema = z.object({
  file_no: fileNoSchema,
  name: z.string(),
  thumbanil: z.string().nullable(),
  url: z.string(),
  file_size: z.number().int().min(0),
  format: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  created_at: timestampSchema,
  workspace_no: z.string(),
  path: z.string(),
  extension: z.string(),
  /** Trove's addition (optional: the hosted service does not send it): ./placeholder.ts. */
  placeholder: listPlaceholderSchema.nullable().optional(),
});
export type FileListRow = z.infer<typeof fileListRowSchema>;

export const pageMetaSchema = z.object({
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
  total: z.number().int().min(0),
  hasNext: z.boolean(),
  hasPrev: z.boolean(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

export const listFilesResponseSchema = z.object({
  files: z.array(fileListRowSchema),
  meta: pageMetaSchema,
});
export type ListFilesResponse = z.infer<typeof listFilesResponseSchema>;

export const fileNoParamsSchema = z.object({ fileNo: fileNoSchema });

export const folderReferenceSchema = z.object({
  id: uuidSchema,
  folder_no: z.string(),
  name: z.string(),
  path: z.string(),
});

/**
 * Trove's addition (optional: the hosted service does not send them; issue #33): a stored video's
 * duration in seconds and the codecs of its video and audio streams (`h264`, `aac`; no audio:
 * null), read by ffprobe once the upload is stored; its frame, as displayed, is `width` and
 * `height`. Null for anything that is not a video, and for a video that could not be probed (or
 * was stored where the server cannot probe it). Spread into the upload response, the details and
 * the record; the list row leaves them out (the spec fixes its keys).
 */
export const videoFileFields = {
  duration: z.number().min(0).nullable().optional(),
  video_codec: z.string().nullable().optional(),
  audio_codec: z.string().nullable().optional(),
};

/** Endpoint 7 `data`. */
export const fileDetailsSchema = z.object({
  id: uuidSchema,
  file_no: fileNoSchema,
  name: z.string(),
  url: z.string(),
  path: z.string().nullable(),
  format: z.string(),
  dimensions: z.object({ width: z.number().int().nullable(), height: z.number().int().nullable() }),
  size: z.number().int().min(0),
  workspace: z.object({ name: z.string(), workspace_no: z.string() }),
  folder: folderReferenceSchema.nullable(),
  uploaded_by: z.string(),
  uploaded_at: timestampSchema,
  asset_key: z.string(),
  asset_url: z.string(),
  extension: z.string(),
  /**
   * Trove's addition (optional: the hosted service does not send it): a private file's `url` and
   * `asset_url` are signed for a short time.
   */
  is_private: z.boolean().optional(),
  /** Trove's addition (optional, as above): when a temporary file is deleted; null if it stays. */
  expires_at: timestampSchema.nullable().optional(),
  /** Trove's addition (optional, as above): the image's placeholder (./placeholder.ts). */
  placeholder: placeholderSchema.nullable().optional(),
  ...videoFileFields,
});
export type FileDetails = z.infer<typeof fileDetailsSchema>;

export const fileDetailsResponseSchema = z.object({ success: z.literal(true), data: fileDetailsSchema });
export type FileDetailsResponse = z.infer<typeof fileDetailsResponseSchema>;

/** Endpoint 20 body: the file's privacy (a private file is served only through signed URLs). */
export const updateFileBodySchema = z.strictObject({ is_private: z.boolean() });
export type UpdateFileBody = z.infer<typeof updateFileBodySchema>;

/** Longest lifetime of a signed delivery URL, seconds (7 days); default 1 hour. */
export const MAX_SIGNED_URL_EXPIRES_IN = 604_800;
export const DEFAULT_SIGNED_URL_EXPIRES_IN = 3_600;

/**
 * What a signed URL may serve besides the file itself: an image transform, a video transform
 * (`thumb_ar`, `so_5,eo_15,w_400`) or a streaming ladder (`st_240_360`, `processing`), whose URL
 * names the HLS master and whose signature opens that whole package.
 */
const signedTransformSchema = z
  .string()
  .superRefine((value, ctx) => {
    try {
      if (streamingStepHeights(value) === null) checkDeliveryTransform(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
    }
  })
  .meta({
    description:
      "Image or video transformation, or a streaming ladder (st_240_360: the URL is the HLS master, ar-master.m3u8)",
    examples: ["w_300,h_300,c_fill", "thumb_ar", "st_240_360_720"],
  });

/** Endpoint 21 body: what the signed URL serves, and for how long. */
export const signedUrlBodySchema = z.strictObject({
  transform: signedTransformSchema.optional(),
  expires_in: z.number().int().min(1).max(MAX_SIGNED_URL_EXPIRES_IN).optional(),
});
export type SignedUrlBody = z.infer<typeof signedUrlBodySchema>;

export const signedUrlResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ url: z.string(), expires_at: timestampSchema }),
});
export type SignedUrlResponse = z.infer<typeof signedUrlResponseSchema>;

/** Endpoint 8 body: a new base name, without extension handling by the caller or any path separator. */
export const renameFileBodySchema = z.object({
  name: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => !/[/\\\0]/.test(name), "name must not contain path separators or NUL")
    .refine((name) => name.trim().length > 0 && name !== "." && name !== "..", "name must not be blank"),
});
export type RenameFileBody = z.infer<typeof renameFileBodySchema>;

/** Endpoint 8 response: the full file record. */
export const fileRecordSchema = z.object({
  id: uuidSchema,
  file_no: fileNoSchema,
  name: z.string(),
  folder_id: uuidSchema.nullable(),
  path: z.string().nullable(),
  url: z.string(),
  original_url: z.string().nullable(),
  workspace_id: uuidSchema,
  workspace_no: z.string(),
  height: z.number().int().nullable(),
  width: z.number().int().nullable(),
  format: z.string(),
  file_size: z.number().int().min(0),
  is_delete: z.boolean(),
  is_active: z.boolean(),
  created_by: z.string().nullable(),
  meta_data: z.object({
    size: z.number().int().min(0),
    width: z.number().int().nullable(),
    format: z.string(),
    height: z.number().int().nullable(),
    orientation: z.string().nullable(),
  }),
  created_at: timestampSchema,
  updated_at: timestampSchema,
  transform_string: z.string().nullable(),
  source: z.string(),
  is_default: z.boolean(),
  orientation: z.string().nullable(),
  extension: z.string(),
  /** Trove's addition (optional): the image's placeholder (./placeholder.ts). */
  placeholder: placeholderSchema.nullable().optional(),
  ...videoFileFields,
});
export type FileRecord = z.infer<typeof fileRecordSchema>;
