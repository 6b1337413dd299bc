/**
 * `Upload-Metadata` (already base64-decoded by @tus/server) read as the direct upload's form
 * fields, so a tus upload takes exactly what `POST /api/v1/uploads` takes and is validated by the
 * same code (src/uploads/upload-fields.ts): `file_name`, `folder`, `tags`, `metadata`,
 * `custom_id`, `random_prefix`, `is_private`, `transform`, `expires_in`, `embedded_metadata`,
 * `webhook_url`.
 *
 * tus clients name the file differently: tus-js-client's examples send `filename`, Uppy sends
 * `name` (and `filename`); either stands for `file_name` when `file_name` is absent. `filetype`
 * and `type` are read by nobody: the bytes decide the type (src/uploads/sniff-upload.ts). Other
 * keys (Uppy sends `relativePath` and whatever meta the page set) are ignored, as a form's extra
 * fields would be refused by nothing either.
 */
import type { DirectUploadFields } from "@trove/schema";
import { directUploadFieldsSchema } from "@trove/schema";
import { HttpError } from "../errors/http-error.js";
import type { TrustedRangesInput } from "../network/trusted-ranges.js";
import { parseDirectFields } from "../uploads/upload-fields.js";

/** The form fields a tus upload may carry in its metadata. */
const FIELD_NAMES = new Set(Object.keys(directUploadFieldsSchema.shape));
/** tus clients' names for the file's name, in the order they are looked at. */
const FILE_NAME_ALIASES = ["filename", "name"] as const;

export type TusMetadata = Record<string, string | null | undefined>;

/** The form fields in `metadata`: a key without a value is absent. */
export function formFieldsOf(metadata: TusMetadata | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (typeof value === "string" && FIELD_NAMES.has(key)) fields[key] = value;
  }
  if (fields.file_name === undefined) {
    const alias = FILE_NAME_ALIASES.map((key) => metadata?.[key]).find((value) => typeof value === "string");
    if (alias) fields.file_name = alias;
  }
  return fields;
}

/** The validated fields of a tus upload's metadata; 400 in the upload envelope when they are not. */
export function parseTusFields(
  metadata: TusMetadata | undefined,
  trustedRanges?: TrustedRangesInput,
): DirectUploadFields {
  const fields = formFieldsOf(metadata);
  if (fields.file_name === undefined) {
    throw new HttpError(400, "Upload-Metadata needs the file's name: filename (or name, or file_name)");
  }
  return parseDirectFields(fields, trustedRanges);
}
