/**
 * Errors: throw `HttpError` (or a helper below) from any route; the global handler in
 * src/plugins/errors.ts renders the group's envelope with `buildErrorBody` from @trove/schema,
 * whose error catalogue also holds the messages the spec fixes.
 */
import { notFoundMessage, type ResponseGroup } from "@trove/schema";
import { HttpError } from "./http-error.js";

export * from "./http-error.js";

/** The group's standard 404: "File not found", "Folder not found", "Source not found", "Session not found". */
export function notFound(group: ResponseGroup): HttpError {
  return new HttpError(404, notFoundMessage(group));
}

/** 400 in the group's shape ("Validation failed" title where the envelope has one). */
export function badRequest(message: string, options?: ConstructorParameters<typeof HttpError>[2]): HttpError {
  return new HttpError(400, message, options);
}
