import type { MultipartStartBodyInput } from "@trove/schema";
import type { StoreOptions, StoreTimeOptions } from "./upload-options.js";

/**
 * The text fields of a direct upload (form fields) and a remote-URL upload (JSON), which the spec
 * spells the same way: tags comma-joined, metadata as a JSON string, random_prefix "true"/"false".
 */
export function storeFields(
  options: StoreOptions & StoreTimeOptions,
  fileName: string | undefined,
): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    file_name: fileName,
    folder: options.folder,
    tags: options.tags === undefined ? undefined : tagList(options.tags).join(","),
    transform: options.transform,
    metadata: options.metadata === undefined ? undefined : JSON.stringify(options.metadata),
    custom_id: options.customId,
    random_prefix: options.randomPrefix === undefined ? undefined : String(options.randomPrefix),
    webhook_url: options.webhookUrl,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Record<
    string,
    string
  >;
}

/** Multipart start takes JSON types: tags as an array, metadata as an object, a boolean prefix flag. */
export function multipartStartBody(
  options: StoreOptions & { ttlSeconds?: number | undefined },
  fileName: string,
  size: number,
  format: string,
): MultipartStartBodyInput {
  return {
    file_name: fileName,
    size,
    format,
    folder: options.folder,
    tags: options.tags === undefined ? undefined : tagList(options.tags),
    metadata: options.metadata,
    custom_id: options.customId,
    random_prefix: options.randomPrefix,
    ttl_seconds: options.ttlSeconds,
  };
}

function tagList(tags: readonly string[] | string): string[] {
  const list = typeof tags === "string" ? tags.split(",") : [...tags];
  return list.map((tag) => tag.trim()).filter((tag) => tag !== "");
}
