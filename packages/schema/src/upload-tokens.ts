import * as z from "zod";
import { metadataObjectSchema, tagSchema, timestampSchema } from "./common.js";
import { embeddedMetadataModeSchema } from "./embedded-metadata.js";
import { fileExpiresInSchema, folderPathSchema } from "./uploads.js";

/**
 * Upload policies: what an upload made with an upload token (or a public key that carries a
 * policy) may store. Every field is optional; an absent field does not restrict.
 *
 * - `folder` with `folder_match` `exact` (default): uploads land exactly in that folder (an
 *   upload naming no folder goes there); `prefix`: in that folder or anywhere below it, judged by
 *   whole path segments (`avatars` admits `avatars/u1`, never `avatars2`).
 * - `max_file_size`: bytes per file, judged by the bytes received, not the declared size alone.
 * - `allowed_types`: MIME types of the sniffed content (the client's claim is never read):
 *   exact (`video/mp4`) or a whole top-level type (`image/*`).
 * - `tags`, `metadata`, `custom_id`: fixed on every file; a request's own values are replaced.
 * - `allow_remote` (default false for tokens), `allow_multipart` (default true).
 * - `allow_transforms` (default true): false refuses a store-time `transform` (403
 *   `TRANSFORM_NOT_ALLOWED`). When allowed, `max_file_size` holds for the stored output too.
 * - `file_expires_in`: every file is temporary, deleted that many seconds after its upload.
 * - `embedded_metadata`: `strip`, `strip-location` or `keep` for every image uploaded under it.
 * - `min_width`, `max_width`, `min_height`, `max_height` (pixels) and `min_aspect_ratio`,
 *   `max_aspect_ratio` (width / height): an image the server decodes must fit them, judged from its
 *   header with the EXIF orientation applied (a portrait phone photo is portrait), as uploaded and,
 *   after a store-time transform, as stored; else 422 `IMAGE_DIMENSIONS_NOT_ALLOWED`. Files that are
 *   not raster images are not affected. A minimum above its maximum is refused (400).
 */
export const FOLDER_MATCHES = ["exact", "prefix"] as const;

/** `image/*` or `type/subtype`, lowercase. */
export const mimePatternSchema = z
  .string()
  .max(255)
  .regex(
    /^[a-z0-9][a-z0-9.+-]{0,126}\/(?:\*|[a-z0-9][a-z0-9.+-]{0,126})$/,
    "must look like image/* or video/mp4",
  );

/** Pixels, as the policy's dimension limits count them. */
const pixelLimitSchema = z.number().int().min(1).max(1_000_000);
/** Width / height: 0.25 is a tall 1:4 strip, 4 a wide 4:1 banner. */
const aspectRatioLimitSchema = z.number().positive().max(10_000);

/** Each dimension limit's pair: its minimum may not exceed its maximum. */
const DIMENSION_PAIRS = [
  ["min_width", "max_width"],
  ["min_height", "max_height"],
  ["min_aspect_ratio", "max_aspect_ratio"],
] as const;

type DimensionLimits = Partial<Record<(typeof DIMENSION_PAIRS)[number][number], number>>;

function checkDimensionPairs(policy: DimensionLimits, context: z.RefinementCtx): void {
  for (const [min, max] of DIMENSION_PAIRS) {
    const low = policy[min];
    const high = policy[max];
    if (low !== undefined && high !== undefined && low > high) {
      context.addIssue({
        code: "custom",
        path: [min],
        message: `${min} (${low}) must not be greater than ${max} (${high})`,
      });
    }
  }
}

const uploadPolicyFields = z.object({
  folder: folderPathSchema.optional(),
  folder_match: z.enum(FOLDER_MATCHES).optional(),
  max_file_size: z.number().int().min(1).optional(),
  allowed_types: z.array(mimePatternSchema).min(1).max(50).optional(),
  tags: z.array(tagSchema).max(100).optional(),
  metadata: metadataObjectSchema.optional(),
  custom_id: z.string().max(255).optional(),
  allow_remote: z.boolean().optional(),
  allow_multipart: z.boolean().optional(),
  allow_transforms: z.boolean().optional(),
  /** true: every file uploaded under the policy is private, whatever the upload asks. */
  private: z.boolean().optional(),
  /**
   * Every file uploaded under the policy is deleted this many seconds after its upload; an
   * upload's own `expires_in` may shorten that, never lengthen it (400).
   */
  file_expires_in: fileExpiresInSchema.optional(),
  /**
   * What becomes of the embedded metadata of images uploaded under the policy (stricter than the
   * workspace's rule only where it says so): an upload may ask for stricter, never for less.
   */
  embedded_metadata: embeddedMetadataModeSchema.optional(),
  min_width: pixelLimitSchema.optional(),
  max_width: pixelLimitSchema.optional(),
  min_height: pixelLimitSchema.optional(),
  max_height: pixelLimitSchema.optional(),
  min_aspect_ratio: aspectRatioLimitSchema.optional(),
  max_aspect_ratio: aspectRatioLimitSchema.optional(),
});
export const uploadPolicySchema = uploadPolicyFields.superRefine(checkDimensionPairs);
export type UploadPolicy = z.infer<typeof uploadPolicySchema>;

/** Longest token lifetime, seconds (1 day); default 10 minutes. */
export const MAX_UPLOAD_TOKEN_TTL_SECONDS = 86_400;
export const DEFAULT_UPLOAD_TOKEN_TTL_SECONDS = 600;
/** Most files one token may create; default 1 (one-shot). */
export const MAX_UPLOAD_TOKEN_FILES = 1_000;

/** Body of `POST /api/v1/uploads/tokens` (private key). */
export const createUploadTokenBodySchema = uploadPolicyFields
  .extend({
    expires_in: z.number().int().min(1).max(MAX_UPLOAD_TOKEN_TTL_SECONDS).optional(),
    max_files: z.number().int().min(1).max(MAX_UPLOAD_TOKEN_FILES).optional(),
  })
  .superRefine(checkDimensionPairs);
export type CreateUploadTokenBody = z.input<typeof createUploadTokenBodySchema>;

/** The minted token: shown once, like a key. `policy` is the policy as stored, defaults written out. */
export const uploadTokenResponseSchema = z.object({
  token: z.string(),
  expires_at: timestampSchema,
  max_files: z.number().int(),
  policy: uploadPolicySchema,
});
export type UploadTokenResponse = z.infer<typeof uploadTokenResponseSchema>;
