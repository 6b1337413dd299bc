import * as z from "zod";
import { fileNoSchema, metadataObjectSchema, tagSchema, timestampSchema } from "./common.js";
import { embeddedMetadataModeSchema } from "./embedded-metadata.js";
import { placeholderSchema } from "./placeholder.js";
import { transformStringSchema } from "./transform/index.js";
import { fileExpiresInSchema, fileNameSchema, folderPathSchema, httpUrlSchema } from "./uploads.js";

/** Longest lifetime of presigned part URLs we accept: 7 days, S3's own limit for presigning. */
export const MAX_TTL_SECONDS = 7 * 24 * 60 * 60;

/** Endpoint 3: multipart start. */
export const multipartStartBodySchema = z.object({
  file_name: fileNameSchema,
  // 0 bytes: refused on every upload path with this message (the server calls it EMPTY_FILE).
  size: z.number().int().min(1, "File is empty").max(Number.MAX_SAFE_INTEGER),
  format: z.string().min(1).max(255),
  folder: folderPathSchema.optional(),
  tags: z.array(tagSchema).max(100).optional(),
  metadata: metadataObjectSchema.optional(),
  custom_id: z.string().max(255).optional(),
  random_prefix: z.boolean().optional(),
  /** A private file is served only through signed URLs. */
  is_private: z.boolean().optional(),
  ttl_seconds: z.number().int().min(1).max(MAX_TTL_SECONDS).optional(),
  /** Seconds the completed file lives, counted from complete (as for direct upload). */
  expires_in: fileExpiresInSchema.optional(),
  /** What becomes of the image's embedded metadata (./embedded-metadata.ts), judged at complete. */
  embedded_metadata: embeddedMetadataModeSchema.optional(),
  /** Store-time transform applied to the assembled file, as direct upload's `transform`. */
  transform: transformStringSchema.optional(),
  /** Receives the signed `file.uploaded` webhook of this file once, as direct upload's `webhook_url`. */
  webhook_url: httpUrlSchema.optional(),
});
export type MultipartStartBody = z.infer<typeof multipartStartBodySchema>;

/**
 * The multipart session. The spec does not name the expiry field; Trove calls it `expires_at`
 * (Unix seconds).
 */
export const multipartSessionSchema = z.object({
  session_id: z.string().min(1),
  part_size: z.number().int().min(1),
  parts: z.array(z.string()).min(1),
  expires_at: z.number().int(),
});

/** Endpoint 5: multipart complete. */
export const multipartCompleteBodySchema = z.object({ session_id: z.string().min(1).max(128) });
export type MultipartCompleteBody = z.infer<typeof multipartCompleteBodySchema>;

export const multipartCompleteResultSchema = z.object({
  id: z.string(),
  file_no: fileNoSchema,
  name: z.string(),
  url: z.string(),
  path: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  format: z.string(),
  file_size: z.number().int().min(0),
  workspace_no: z.string(),
  /** Trove's addition (optional): when a temporary file is deleted; null for a file that stays. */
  expires_at: timestampSchema.nullable().optional(),
  /** Trove's addition (optional): the image's placeholder, usually still null here (./placeholder.ts). */
  placeholder: placeholderSchema.nullable().optional(),
});

export const multipartCompleteResponseSchema = z.object({
  success: z.literal(true),
  data: multipartCompleteResultSchema,
});

/** Trove's own endpoint 22 (DELETE /api/v1/multipart/:sessionId): abandon a session. */
export const multipartSessionParamsSchema = z.object({ sessionId: z.string().min(1).max(128) });
export type MultipartSessionParams = z.infer<typeof multipartSessionParamsSchema>;

/** Endpoint 22's success: the multipart group's `{ success }` envelope, nothing more to say. */
export const multipartAbortResponseSchema = z.object({ success: z.literal(true) });
export type MultipartAbortResponse = z.infer<typeof multipartAbortResponseSchema>;

/** Endpoint 4's path on Trove's part gateway: `/api/v1/multipart/parts/:sessionId/:partNumber`. */
export const partUploadParamsSchema = z.object({
  sessionId: z.string().min(1).max(128),
  partNumber: z.coerce.number().int().min(1),
});
export type PartUploadParams = z.infer<typeof partUploadParamsSchema>;

/** Endpoint 4's success: 200 with an optional ETag header and this body from Trove's part gateway. */
export const partUploadResponseSchema = z.object({
  success: z.literal(true),
  part_number: z.number().int().min(1),
  size: z.number().int().min(0),
  etag: z.string(),
});
export type PartUploadResponse = z.infer<typeof partUploadResponseSchema>;

// Written out without zod (upload-wire-types.test.ts proves they equal the schemas above).
export type {
  MultipartCompleteResponse,
  MultipartCompleteResult,
  MultipartSession,
  MultipartStartBodyInput,
} from "./upload-wire-types.js";
