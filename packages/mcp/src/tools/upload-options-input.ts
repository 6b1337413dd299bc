import type { UploadResult } from "@trove/sdk/node";
import * as z from "zod";

/** The store options both upload tools take, described for a model. */
export const storeOptionsInput = {
  folder: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe("Folder path to store the file in, e.g. `products/2026`; created when missing."),
  file_name: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe("Name to store the file under, with its extension."),
  tags: z.array(z.string().min(1).max(100)).max(100).optional().describe("Tags to attach, for search."),
  transform: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .describe(
      "A transformation applied once before storing, e.g. `w_1600,f_webp` (grammar: resource trove://transform-grammar). Most uploads need none: transform at delivery instead.",
    ),
  private: z
    .boolean()
    .optional()
    .describe("Store the file as private: served only through signed URLs (tool signed_url)."),
};

export type StoreOptionsInput = {
  folder?: string;
  file_name?: string;
  tags?: string[];
  transform?: string;
  private?: boolean;
};

export function storeOptionsOf(input: StoreOptionsInput) {
  return {
    folder: input.folder,
    fileName: input.file_name,
    tags: input.tags,
    transform: input.transform,
    isPrivate: input.private,
  };
}

/** What a model needs of an upload: the number to refer to it by, where it lives, its URL. */
export function uploadSummary(result: UploadResult) {
  return {
    file_no: result.file_no,
    name: result.name,
    path: result.path,
    url: result.url,
    size: result.size,
    format: result.format,
    ...(result.width === undefined ? {} : { width: result.width, height: result.height }),
    ...(result.is_private === undefined ? {} : { is_private: result.is_private }),
  };
}
