import * as z from "zod";

/** ISO 8601 UTC date-time, as every timestamp in the API. */
export const timestampSchema = z.iso.datetime({ offset: true });

export const uuidSchema = z.uuid();

/** `file_no`: a numeric identifier carried as a string (it appears in delivery URLs). */
export const fileNoSchema = z.string().regex(/^[0-9]{1,19}$/, "file number must be numeric");

/** `folder_no` and `workspace_no`: short alphanumeric identifiers. */
export const shortNoSchema = z.string().regex(/^[A-Za-z0-9]{1,32}$/, "must be alphanumeric");

/** Free-form custom fields a caller attaches to a file. */
export const metadataObjectSchema = z.record(z.string(), z.unknown());

/** `page` query parameter: integer ≥ 1, default 1. Query strings arrive as text, hence coercion. */
export const pageQuerySchema = z.coerce.number().int().min(1).max(1_000_000).default(1);

/** `limit` query parameter: integer 1..100. */
export const limitQuerySchema = (defaultLimit: number) =>
  z.coerce.number().int().min(1).max(100).default(defaultLimit);

/** Comma-separated list, e.g. `tags=a,b` → `["a", "b"]`; empty items dropped. */
export const commaListSchema = z.string().transform((value) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0),
);

export const tagSchema = z.string().min(1).max(100);

/** A message confirming a deletion: `{ message }`. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;
