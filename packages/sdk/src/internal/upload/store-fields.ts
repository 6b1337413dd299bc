import type { MultipartStartBodyInput } from "@trove/schema/zod-free";
import { isRecord } from "../is-record.js";
import type { StoreOptions, StoreTimeOptions } from "./upload-options.js";

/**
 * The text fields of a direct upload (form fields) and a remote-URL upload (JSON), which the spec
 * spells the same way: tags comma-joined, metadata as a JSON string, random_prefix "true"/"false".
 */
export function storeFields(
  options: StoreOptions & StoreTimeOptions,
  fileName: string | undefined,
): Record<string, string> {
  const fields: Record<string, string> = {};
  const typed = {
    ...fileFields(options, fileName),
    transform: options.transform,
    webhook_url: options.webhookUrl,
  };
  for (const [name, value] of Object.entries(typed)) {
    // String() joins an array with commas; metadata is the one object.
    if (value !== undefined) fields[name] = isRecord(value) ? JSON.stringify(value) : String(value);
  }
  return fields;
}

/**
 * Multipart start takes JSON types: tags as an array, metadata as an object, a boolean prefix flag;
 * and what a direct upload takes at store time (a Trove server stores the transform and the
 * webhook with the session and applies them at complete).
 */
export function multipartStartBody(
  options: StoreOptions & StoreTimeOptions & { ttlSeconds?: number | undefined },
  fileName: string,
  size: number,
  format: string,
): MultipartStartBodyInput {
  return {
    ...fileFields(options, fileName),
    file_name: fileName,
    size,
    format,
    ttl_seconds: options.ttlSeconds,
    transform: options.transform,
    webhook_url: options.webhookUrl,
  };
}

/** The fields of the stored file that every kind of upload sends, with their JSON types. */
function fileFields(options: StoreOptions, fileName: string | undefined) {
  return {
    file_name: fileName,
    folder: options.folder,
    tags:
      options.tags === undefined
        ? undefined
        : (typeof options.tags === "string" ? options.tags.split(",") : [...options.tags])
            .map((tag) => tag.trim())
            .filter((tag) => tag !== ""),
    metadata: options.metadata,
    custom_id: options.customId,
    random_prefix: options.randomPrefix,
    is_private: options.isPrivate,
    expires_in: options.expiresIn,
  };
}
