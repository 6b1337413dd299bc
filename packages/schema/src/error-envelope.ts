/**
 * The error body of every failure, by the request's group (./error-groups.ts) and status: the
 * spec's "Errors" section plus Trove's choices where it is silent. The server renders every
 * error through `buildErrorBody`; the OpenAPI document describes the same bodies
 * (./error-shapes.ts, checked against this builder by a test). Zod-free.
 *
 *   buildErrorBody("files", 404, { message: "File not found" })   -> { error: "File not found" }
 *   buildErrorBody("upload", 400, { message: "name is required" })
 *     -> { error: "Validation failed", success: false, errorCode: "VALIDATION_FAILED", message: "name is required" }
 *
 * `title` (default by status) is the `error` of `{ error, message }` envelopes; envelopes that
 * carry only `error` (404, 409, multipart 4xx, folder create 400) carry the message there.
 *
 * | status  | upload                                   | multipart               | files / folders / sources / other |
 * | 400,415 | { error: title, success: false, errorCode, message } | { success: false, error: message } | { error: title, message }; folder create: { success: false, error: message } |
 * | 401     | { success: false, error: "Unauthorized", errorCode: "UNAUTHORIZED", message } | { success: false, error, message } | files/folders like multipart; sources { error: "Invalid API key.", message }; other { error, message } |
 * | 403     | upload shape                             | { error, message }      | { error: "Forbidden", message }  |
 * | 404     | upload shape                             | { success: false, error: message } | { error: message } (+ code when set); other { error: title, message } |
 * | 409     | upload shape                             | { success: false, error } | sources { error }; folders { success: false, error }; others { error, message } |
 * | 413     | { error, success: false, errorCode: "FILE_TOO_LARGE", message } | { error, message } | { error, message } |
 * | 429     | { error: "Too Many Requests", message: "Rate limit exceeded, retry in N seconds", retryAfterSeconds: N } everywhere |
 * | 5xx     | { error: "Internal Server Error", success: false, errorCode: "INTERNAL_ERROR", message } | { success: false, error } | { error, message } (message generic unless the error is `expose`d: a gateway error naming the upstream) |
 * | 503     | as 5xx, with the title "Service Unavailable", errorCode "SERVICE_UNAVAILABLE" and the server's message (retry advice); Retry-After is set |
 *
 * The admin group (`/admin/v1/...`, Trove's own) answers every status but 429 with `{ error: title,
 * errorCode, message }`, its 401 included (the message says what was wrong with the admin token).
 *
 * Upload-policy refusals (UPLOAD_POLICY_ERROR_CODES) carry their own
 * errorCode: in the upload group as above; in the multipart group as `{ success: false, error:
 * message, errorCode }` whatever the status (401: `{ success: false, error: "Unauthorized",
 * message, errorCode }`), so that a client learns which rule it broke. Other multipart errors keep
 * the spec's shapes. A 401 with an errorCode (an expired upload token) keeps its own message.
 * An expired API key (errorCode KEY_EXPIRED) gets its group's 401 above, word for word where the
 * spec fixes it (upload, multipart, files, folders, sources), with `errorCode: "KEY_EXPIRED"` added.
 */
import {
  ERROR_MESSAGES,
  errorCodeForStatus,
  errorTitleForStatus,
  rateLimitMessage,
} from "./error-catalogue.js";
import { type ErrorCode, UPLOAD_POLICY_ERROR_CODES } from "./error-codes.js";
import type { ResponseGroup } from "./error-groups.js";

/** The folder-create route answers every malformed request in `{ success: false, error }`. */
export type ErrorVariant = "folder-create";
export type ErrorBody = Record<string, unknown>;

/** What the body builder needs from an error. */
export interface ErrorBodyInput {
  message: string;
  title?: string | undefined;
  code?: string | undefined;
  errorCode?: string | undefined;
  retryAfterSeconds?: number | undefined;
  /** A 5xx whose message may be sent: a gateway error naming the upstream. */
  expose?: boolean | undefined;
}

/** The 401 of an API key past its expiry, in every group (./error-codes.ts). */
const KEY_EXPIRED = "KEY_EXPIRED" satisfies ErrorCode;

/** Codes of upload-policy refusals, the only ones the multipart envelope carries. */
const POLICY_ERROR_CODES: ReadonlySet<string> = new Set(UPLOAD_POLICY_ERROR_CODES);

/** Whole seconds, at least 1, as both the body and `Retry-After` carry them. */
export function retryAfterSecondsOf(value: number | undefined): number {
  return Math.max(1, Math.ceil(value ?? 1));
}

export function buildErrorBody(
  group: ResponseGroup,
  status: number,
  error: ErrorBodyInput,
  variant?: ErrorVariant,
): ErrorBody {
  const title = error.title ?? errorTitleForStatus(status);

  if (status === 429) {
    const seconds = retryAfterSecondsOf(error.retryAfterSeconds);
    return {
      error: "Too Many Requests",
      message: rateLimitMessage(seconds),
      retryAfterSeconds: seconds,
    };
  }

  if (group === "admin") return adminBody(status, error, title);

  if (status === 401) {
    // An expired key is an invalid key to the spec: every group answers its own fixed 401, and
    // `errorCode` says why, so a client tells "renew the key" from "wrong key" on any endpoint.
    const keyExpired = error.errorCode === KEY_EXPIRED;
    const expiredCode = keyExpired ? { errorCode: KEY_EXPIRED } : {};
    if (group === "sources")
      return {
        error: ERROR_MESSAGES.sourcesUnauthorizedError,
        message: ERROR_MESSAGES.sourcesUnauthorizedMessage,
        ...expiredCode,
      };
    // The spec does not fix the `other` group's 401: there the expiry is said in words too.
    const ownMessage = error.errorCode !== undefined && (!keyExpired || group === "other");
    const message = ownMessage ? error.message : ERROR_MESSAGES.unauthorized;
    if (group === "upload") {
      return { success: false, error: "Unauthorized", errorCode: error.errorCode ?? "UNAUTHORIZED", message };
    }
    if (group === "other") return { error: "Unauthorized", message, ...expiredCode };
    const body = { success: false, error: "Unauthorized", message, ...expiredCode };
    return group === "multipart" && POLICY_ERROR_CODES.has(error.errorCode ?? "")
      ? { ...body, errorCode: error.errorCode }
      : body;
  }

  const internal = status >= 500;
  // A 503's message is the server's own advice ("retry in N seconds"), a gateway error's names the
  // upstream (`expose`); other 5xx say nothing.
  const opaque = internal && status !== 503 && error.expose !== true;
  const message = opaque ? ERROR_MESSAGES.internal : error.message;

  if (group === "upload") {
    return {
      error: opaque ? "Internal Server Error" : title,
      success: false,
      errorCode: error.errorCode ?? errorCodeForStatus(status),
      message,
    };
  }

  // A refusal with its own code (upload policies) tells the multipart client which rule it broke.
  if (group === "multipart" && !internal && POLICY_ERROR_CODES.has(error.errorCode ?? "")) {
    return { success: false, error: message, errorCode: error.errorCode };
  }
  if (status === 403) return { error: "Forbidden", message };
  if (internal)
    return group === "multipart"
      ? { success: false, error: opaque ? "Internal Server Error" : message }
      : { error: title, message }; // title: an HttpError's own ("Failed to get file details"), else by status
  if (status === 413) return { error: title, message };

  const badRequest = status === 400 || status === 415;
  switch (group) {
    case "multipart":
      return { success: false, error: message };
    case "folders":
      if ((badRequest && variant === "folder-create") || status === 409)
        return { success: false, error: message };
      break;
    case "sources":
      if (status === 409) return { error: message };
      break;
    default:
      break;
  }
  if (status === 404 && group !== "other") {
    return error.code ? { error: message, code: error.code } : { error: message };
  }
  return { error: title, message };
}

function adminBody(status: number, error: ErrorBodyInput, title: string): ErrorBody {
  const opaque = status >= 500 && status !== 503 && error.expose !== true;
  return {
    error: opaque ? "Internal Server Error" : title,
    errorCode: error.errorCode ?? errorCodeForStatus(status),
    message: opaque ? ERROR_MESSAGES.internal : error.message,
  };
}
