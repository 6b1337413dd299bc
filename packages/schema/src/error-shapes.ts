import type * as z from "zod";
import type { ErrorGroup } from "./error-groups.js";
import {
  adminErrorSchema,
  errorMessageSchema,
  errorOnlySchema,
  failureSchema,
  failureWithMessageSchema,
  fileNotFoundCodeSchema,
  rateLimitErrorSchema,
  uploadErrorSchema,
} from "./errors.js";

/**
 * The envelope a group answers with for a status, following the spec's Errors table; where the
 * spec leaves a shape open, Trove's choice is noted inline. The bodies themselves are built by
 * `buildErrorBody` (./error-envelope.ts); a test checks that every body matches its shape here.
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
      if (status === 401) return failureWithMessageSchema;
      // The spec's `{ error, message }` for 403; a body over the limit is refused before routing.
      if (status === 403 || status === 413) return errorMessageSchema;
      return failureSchema;
    case "files":
      if (status === 401) return failureWithMessageSchema;
      if (status === 404) return variant === "rename" ? fileNotFoundCodeSchema : errorOnlySchema;
      return errorMessageSchema;
    case "folders":
      if (status === 401) return failureWithMessageSchema;
      if (status === 404) return errorOnlySchema;
      // Non-empty folder delete (409) is not shown in the spec; Trove answers `{ success: false, error }`.
      if (status === 409) return failureSchema;
      // The create route answers every malformed request (400, 413, 415) in its `{ success: false, error }`.
      if (variant === "folder-create" && (status === 400 || status === 413 || status === 415))
        return failureSchema;
      return errorMessageSchema;
    case "sources":
      if (status === 404 || status === 409) return errorOnlySchema;
      return errorMessageSchema;
    case "admin":
      return adminErrorSchema;
  }
}
