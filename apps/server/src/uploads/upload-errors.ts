/**
 * Failures of the upload pipeline as `HttpError`s in the upload envelope
 * (`{ error, success: false, errorCode, message }`):
 *
 *   MediaError        -> its status (400, or 413 FILE_TOO_LARGE) and code (IMAGE_TOO_LARGE, INVALID_TRANSFORM, ...)
 *   RemoteFetchError  -> its status (400 or 502) and code (REMOTE_URL_FORBIDDEN, REMOTE_FETCH_FAILED, FILE_TOO_LARGE)
 *   ObjectTooLargeError (storage maxBytes) -> 413 FILE_TOO_LARGE
 *   0 bytes (every upload path)           -> 400 EMPTY_FILE
 *   zod issues of the upload fields -> 400 INVALID_METADATA / INVALID_TRANSFORM / VALIDATION_FAILED
 */
import { ERROR_CATALOGUE, type ErrorCode } from "@trove/schema";
import { HttpError } from "../errors/http-error.js";
import { isMediaError } from "../media/media-error.js";
import { isRemoteFetchError } from "../network/remote-fetch-error.js";
import { ObjectTooLargeError } from "../storage/driver.js";

export function fileTooLarge(maxBytes: number, cause?: unknown): HttpError {
  return new HttpError(413, `File exceeds the maximum upload size of ${maxBytes} bytes`, {
    errorCode: "FILE_TOO_LARGE",
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * A 0-byte upload. Trove refuses it on every path, as most storage APIs do: an empty file has no
 * content to sniff, show or deliver, and is nearly always a client bug (a stream already read).
 */
export function emptyFile(): HttpError {
  return new HttpError(400, ERROR_CATALOGUE.EMPTY_FILE.message, { errorCode: "EMPTY_FILE" });
}

/** Maps known pipeline errors onto HttpError; anything else is returned unchanged (a 500). */
export function toUploadError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (isMediaError(error)) {
    return new HttpError(error.status, error.message, { errorCode: error.code, cause: error });
  }
  if (isRemoteFetchError(error)) {
    return new HttpError(error.status, error.message, {
      errorCode: error.code,
      details: { detail: error.detail, upstreamStatus: error.upstreamStatus },
      cause: error,
    });
  }
  if (error instanceof ObjectTooLargeError) return fileTooLarge(error.maxBytes, error);
  return error;
}

export interface FieldIssue {
  path: PropertyKey[];
  message: string;
}

const FIELD_ERROR_CODES: Readonly<Record<string, ErrorCode>> = {
  metadata: "INVALID_METADATA",
  transform: "INVALID_TRANSFORM",
};

/**
 * A 400 for invalid upload fields. The first issue decides the code; a transform error keeps the
 * parser's message as is (`"q_200: quality must be 1..100"`), others are prefixed by the field.
 */
export function invalidFields(issues: readonly FieldIssue[]): HttpError {
  const first = issues[0];
  const field = first ? String(first.path[0] ?? "") : "";
  const errorCode = FIELD_ERROR_CODES[field] ?? "VALIDATION_FAILED";
  const describe = (issue: FieldIssue) => {
    const name = issue.path.map(String).join(".");
    if (name === "transform") return issue.message;
    return name ? `${name}: ${issue.message}` : issue.message;
  };
  const relevant =
    errorCode === "VALIDATION_FAILED" ? issues : issues.filter((i) => String(i.path[0]) === field);
  return new HttpError(400, relevant.map(describe).join("; ") || "Invalid upload fields", { errorCode });
}
