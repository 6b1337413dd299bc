import type * as z from "zod";
import {
  errorMessageSchema,
  errorOnlySchema,
  failureSchema,
  failureWithMessageSchema,
  fileNotFoundCodeSchema,
  rateLimitErrorSchema,
  uploadErrorSchema,
} from "./errors.js";

/** Endpoint groups, which decide the error envelope. Chosen by path prefix. */
export const ERROR_GROUPS = ["upload", "multipart", "files", "folders", "sources"] as const;
export type ErrorGroup = (typeof ERROR_GROUPS)[number];

/** The group of an API path, or undefined outside `/api/v1/<group>`. */
export function errorGroupOf(path: string): ErrorGroup | undefined {
  const match = /^\/api\/v1\/(uploads|multipart|files|folders|sources)(?:[/?]|$)/.exec(path);
  if (!match) return undefined;
  const segment = match[1];
  return segment === "uploads" ? "upload" : (segment as ErrorGroup);
}

/**
 * The envelope a group answers with for a status, following the spec's Errors table; where the
 * spec leaves a shape open we use ARCHITECTURE.md's choice (noted inline).
 * `variant` picks between two shapes a group uses for one status.
 */
export function errorShapeFor(
  group: ErrorGroup,
  status: number,
  variant?: "folder-create" | "rename",
): z.ZodType {
  if (status === 429) return rateLimitErrorSchema;
  switch (group) {
    case "upload":
      // Every upload error carries the full `{ error, success, errorCode, message }`.
      return uploadErrorSchema;
    case "multipart":
      return status === 401 ? failureWithMessageSchema : failureSchema;
    case "files":
      if (status === 401) return failureWithMessageSchema;
      if (status === 404) return variant === "rename" ? fileNotFoundCodeSchema : errorOnlySchema;
      return errorMessageSchema;
    case "folders":
      if (status === 401) return failureWithMessageSchema;
      if (status === 404) return errorOnlySchema;
      // Non-empty folder delete (409) is not shown in the spec; ARCHITECTURE.md picks `{ success: false, error }`.
      if (status === 409) return failureSchema;
      // The create route answers every malformed request (400, 413, 415) in its `{ success: false, error }`.
      if (variant === "folder-create" && (status === 400 || status === 413 || status === 415))
        return failureSchema;
      return errorMessageSchema;
    case "sources":
      if (status === 404 || status === 409) return errorOnlySchema;
      return errorMessageSchema;
  }
}
