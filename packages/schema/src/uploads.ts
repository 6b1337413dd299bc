import * as z from "zod";
import { commaListSchema, fileNoSchema, metadataObjectSchema, tagSchema, timestampSchema } from "./common.js";
import { embeddedMetadataModeSchema } from "./embedded-metadata.js";
import { videoFileFields } from "./files.js";
import { placeholderSchema } from "./placeholder.js";
import { transformStringSchema } from "./transform/index.js";

/** A URL the service may call or fetch: http or https only (SSRF checks happen on the server). */
export const httpUrlSchema = z.url({ protocol: /^https?$/ }).max(2048);

/** `file_name`: a name, not a path. Separators, NUL and the dot names are refused. */
export const fileNameSchema = z
  .string()
  .min(1)
  .max(255)
  .refine((name) => !/[/\\\0]/.test(name), "file_name must not contain path separators or NUL")
  .refine((name) => name.trim() !== "." && name.trim() !== "..", "file_name must not be . or ..")
  .refine((name) => name.trim().length > 0, "file_name must not be blank");

/** A folder path like `photos/2024`; created as needed. Empty segments and dot segments are refused. */
export const folderPathSchema = z
  .string()
  .max(1024)
  // The lookbehind keeps trimming linear: `\/+$` alone retries every position of a long inner
  // run of slashes (`a//////…/b`), which is quadratic in the path's length.
  .transform((path) => path.replace(/^\/+|(?<!\/)\/+$/g, ""))
  .refine((path) => !/[\\\0]/.test(path), "folder must not contain backslashes or NUL")
  .refine(
    (path) => path === "" || path.split("/").every((s) => s.trim() !== "" && s !== "." && s !== ".."),
    "folder must be a slash-separated path without empty, '.' or '..' segments",
  )
  .refine((path) => path.split("/").every((s) => s.length <= 255), "folder names are at most 255 characters");

/** `"true"` / `"false"` form strings (booleans accepted too, for JSON callers). */
export const booleanStringSchema = z
  .union([z.boolean(), z.enum(["true", "false"])])
  .transform((value) => value === true || value === "true");

/** `metadata` arrives as a JSON-encoded string of an object; invalid JSON is a 400. */
export const metadataJsonSchema = z.union([metadataObjectSchema, z.string()]).transform((value, ctx) => {
  if (typeof value !== "string") return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
    ctx.addIssue({ code: "custom", message: "metadata must be a JSON object" });
  } catch {
    ctx.addIssue({ code: "custom", message: "metadata must be valid JSON" });
  }
  return z.NEVER;
});

/**
 * Temporary files: `expires_in` is how long, in whole seconds, a file lives after its upload
 * (at least a minute, at most 365 days); the server deletes it then, and answers 404 for it from
 * that moment on. Upload policies bind it as `file_expires_in` (./upload-tokens.ts).
 */
export const MIN_FILE_EXPIRES_IN_SECONDS = 60;
export const MAX_FILE_EXPIRES_IN_SECONDS = 365 * 86_400;

/** `expires_in` (and a policy's `file_expires_in`) as a JSON number. */
export const fileExpiresInSchema = z
  .number("expires_in must be a whole number of seconds")
  .int("expires_in must be a whole number of seconds")
  .min(MIN_FILE_EXPIRES_IN_SECONDS, `expires_in must be at least ${MIN_FILE_EXPIRES_IN_SECONDS} seconds`)
  .max(
    MAX_FILE_EXPIRES_IN_SECONDS,
    `expires_in must be at most ${MAX_FILE_EXPIRES_IN_SECONDS} seconds (365 days)`,
  );

/** `expires_in` of direct and remote upload: a number, or its decimal digits as a form sends them. */
export const expiresInFieldSchema = z
  .union(
    [
      z.number(),
      z
        .string()
        .regex(/^-?\d{1,12}$/)
        .transform(Number),
    ],
    {
      error: "expires_in must be a whole number of seconds",
    },
  )
  .pipe(fileExpiresInSchema);

const uploadOptionFields = {
  folder: folderPathSchema.optional(),
  transform: transformStringSchema.optional(),
  metadata: metadataJsonSchema.optional(),
  custom_id: z.string().max(255).optional(),
  random_prefix: booleanStringSchema.optional(),
  webhook_url: httpUrlSchema.optional(),
  /** A private file is served only through signed URLs; the upload response's `url` is one. */
  is_private: booleanStringSchema.optional(),
  /** Seconds until the file is deleted (see MIN/MAX_FILE_EXPIRES_IN_SECONDS). */
  expires_in: expiresInFieldSchema.optional(),
  /** What becomes of the image's embedded metadata (./embedded-metadata.ts). */
  embedded_metadata: embeddedMetadataModeSchema.optional(),
};

/**
 * Endpoint 1: the text fields of the `multipart/form-data` direct upload (the `file` part is
 * streamed separately). `tags` is comma-separated.
 */
export const directUploadFieldsSchema = z.object({
  file_name: fileNameSchema,
  tags: commaListSchema.pipe(z.array(tagSchema).max(100)).optional(),
  ...uploadOptionFields,
});
export type DirectUploadFields = z.infer<typeof directUploadFieldsSchema>;
export type DirectUploadFieldsInput = z.input<typeof directUploadFieldsSchema>;

/** Endpoint 2: remote-URL upload body. `tags` may be an array or a comma-separated string. */
export const remoteUploadBodySchema = z.object({
  remote_url: httpUrlSchema,
  file_name: fileNameSchema.optional(),
  tags: z
    .union([z.array(tagSchema), commaListSchema])
    .pipe(z.array(tagSchema).max(100))
    .optional(),
  ...uploadOptionFields,
});
export type RemoteUploadBody = z.infer<typeof remoteUploadBodySchema>;
export type RemoteUploadBodyInput = z.input<typeof remoteUploadBodySchema>;

/** The flat upload response (direct and remote-URL upload). */
export const uploadResponseSchema = z.object({
  id: z.string(),
  file_no: fileNoSchema,
  workspace_id: z.string(),
  name: z.string(),
  path: z.string(),
  url: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  size: z.number().int().min(0),
  mime_type: z.string(),
  tags: z.array(z.string()),
  metadata: metadataObjectSchema,
  custom_id: z.string().nullable(),
  folder_no: z.string().nullable(),
  is_duplicate: z.boolean(),
  created_at: timestampSchema,
  upload_source: z.string(),
  thumbnail: z.string().nullable(),
  extension: z.string(),
  format: z.string(),
  hash: z.string(),
  is_private: z.boolean(),
  /**
   * Trove's addition (optional: the hosted service does not send it): when a temporary file is
   * deleted, ISO 8601; null for a file that stays.
   */
  expires_at: timestampSchema.nullable().optional(),
  /**
   * Trove's addition (optional, as above): the image's placeholder (./placeholder.ts). Usually
   * null here: it is computed in the background just after the upload; the details carry it.
   */
  placeholder: placeholderSchema.nullable().optional(),
  /** Trove's addition (optional, as above): a video's duration and codecs (./files.ts). */
  ...videoFileFields,
});

/**
 * The wrapped success body, Trove's default for direct and remote upload: the hosted service's
 * documented `{ success: true, data }` with every field of the flat record in `data`, plus
 * `file_size` and `workspace_no` as its documentation names them. The flat form stays available
 * through a server setting (TROVE_UPLOAD_RESPONSE=flat).
 */
export const wrappedUploadResponseSchema = z.object({
  success: z.literal(true),
  data: uploadResponseSchema.extend({
    file_size: z.number().int().min(0),
    workspace_no: z.string(),
  }),
});

/**
 * The wrapped body as the hosted service documents its minimum; clients written against it read
 * only these fields, and the SDK accepts a body that carries just them.
 */
export const uploadEnvelopeResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    file_no: fileNoSchema,
    name: z.string(),
    url: z.string(),
    path: z.string(),
    width: z.number().int().nullable().optional(),
    height: z.number().int().nullable().optional(),
    format: z.string(),
    file_size: z.number().int().min(0),
    workspace_no: z.string().optional(),
  }),
});

/** Any documented success body of direct and remote upload: flat, wrapped, or the hosted minimum. */
export const anyUploadResponseSchema = z.union([
  uploadResponseSchema,
  wrappedUploadResponseSchema,
  uploadEnvelopeResponseSchema,
]);

export const tagsArraySchema = z.array(tagSchema);

// Written out without zod (upload-wire-types.test.ts proves they equal the schemas above).
export type {
  AnyUploadResponse,
  UploadEnvelopeResponse,
  UploadResponse,
  WrappedUploadResponse,
} from "./upload-wire-types.js";
