/**
 * The error body of every failure, by the request's group (./error-groups.ts) and status: the
 * spec's "Errors" section plus Trove's choices where it is silent. The server renders every
 * error through `buildErrorBody`; the OpenAPI document describes the same bodies
 * (./error-shapes.ts). Which envelope a group answers a status with is one table,
 * ./error-envelopes.ts, that both read; this file builds each envelope's body. Zod-free.
 *
 *   buildErrorBody("files", 404, { message: "File not found" })   -> { error: "File not found" }
 *   buildErrorBody("upload", 400, { message: "name is required" })
 *     -> { error: "Validation failed", success: false, errorCode: "VALIDATION_FAILED", message: "name is required" }
 *
 * `title` (default by status) is the `error` of `{ error, message }` envelopes; envelopes that
 * carry only `error` (404, 409, multipart 4xx, folder create 400) carry the message there. Which
 * envelope a group answers a status with is the table in ./error-envelopes.ts, not repeated here.
 *
 * Upload-policy refusals (UPLOAD_POLICY_ERROR_CODES) carry their own errorCode, in the multipart
 * group too (401: `{ success: false, error: "Unauthorized", message, errorCode }`), so that a
 * client learns which rule it broke. A 401 with an errorCode (an expired upload token) keeps its
 * own message.
 * An expired API key (errorCode KEY_EXPIRED) gets its group's 401, word for word where the
 * spec fixes it (upload, multipart, files, folders, sources), with `errorCode: "KEY_EXPIRED"` added.
 */
import {
  ERROR_MESSAGES,
  errorCodeForStatus,
  errorTitleForStatus,
  rateLimitMessage,
} from "./error-catalogue.js";
import type { ErrorCode } from "./error-codes.js";
import { type ErrorVariant, errorEnvelopeOf, isPolicyRefusal } from "./error-envelopes.js";
import type { ResponseGroup } from "./error-groups.js";

export type ErrorBody = Record<string, unknown>;

/** What the body builder needs from an error. */
export interface ErrorBodyInput {
  message: string;
  title?: string | undefined;
  code?: ErrorCode | undefined;
  errorCode?: ErrorCode | undefined;
  retryAfterSeconds?: number | undefined;
  /** A 5xx whose message may be sent: a gateway error naming the upstream. */
  expose?: boolean | undefined;
}

/** The 401 of an API key past its expiry, in every group (./error-codes.ts). */
const KEY_EXPIRED = "KEY_EXPIRED" satisfies ErrorCode;

/** Whole seconds, at least 1, as both the body and `Retry-After` carry them. */
export function retryAfterSecondsOf(value: number | undefined): number {
  return Math.max(1, Math.ceil(value ?? 1));
}

/** The body of the envelope that ./error-envelopes.ts names for `group` and `status`. */
export function buildErrorBody(
  group: ResponseGroup,
  status: number,
  error: ErrorBodyInput,
  variant?: ErrorVariant,
): ErrorBody {
  const title = error.title ?? errorTitleForStatus(status);
  // A 503's message is the server's own advice ("retry in N seconds"), a gateway error's names the
  // upstream (`expose`); other 5xx say nothing.
  const opaque = status >= 500 && status !== 503 && error.expose !== true;
  const message = opaque ? ERROR_MESSAGES.internal : error.message;
  const errorCode = error.errorCode ?? errorCodeForStatus(status);
  // An expired key is an invalid key to the spec: every group answers its own fixed 401, and
  // `errorCode` says why, so a client tells "renew the key" from "wrong key" on any endpoint.
  const keyExpired = error.errorCode === KEY_EXPIRED;
  const expiredCode = keyExpired ? { errorCode: KEY_EXPIRED } : {};
  // The spec does not fix the `other` group's 401: there the expiry is said in words too. A 401
  // with another code of its own (an expired upload token) keeps its message everywhere.
  const ownMessage = error.errorCode !== undefined && (!keyExpired || group === "other");
  const unauthorizedMessage = ownMessage ? error.message : ERROR_MESSAGES.unauthorized;

  switch (errorEnvelopeOf(group, status, variant, error.errorCode)) {
    case "rateLimit": {
      const seconds = retryAfterSecondsOf(error.retryAfterSeconds);
      return { error: "Too Many Requests", message: rateLimitMessage(seconds), retryAfterSeconds: seconds };
    }
    case "admin":
      return { error: opaque ? "Internal Server Error" : title, errorCode, message };
    case "upload":
      return { error: opaque ? "Internal Server Error" : title, success: false, errorCode, message };
    case "uploadUnauthorized":
      return { success: false, error: "Unauthorized", errorCode, message: unauthorizedMessage };
    case "unauthorized": {
      const body = { success: false, error: "Unauthorized", message: unauthorizedMessage, ...expiredCode };
      // A policy refusal (an expired upload token) tells the multipart client which rule it broke.
      return group === "multipart" && isPolicyRefusal(error.errorCode)
        ? { ...body, errorCode: error.errorCode }
        : body;
    }
    case "sourcesUnauthorized":
      return {
        error: ERROR_MESSAGES.sourcesUnauthorizedError,
        message: ERROR_MESSAGES.sourcesUnauthorizedMessage,
        ...expiredCode,
      };
    case "otherUnauthorized":
      return { error: "Unauthorized", message: unauthorizedMessage, ...expiredCode };
    case "forbidden":
      return { error: "Forbidden", message };
    case "titled":
      // title: an HttpError's own ("Failed to get file details"), else by status.
      return { error: title, message };
    case "failure":
      return { success: false, error: opaque ? "Internal Server Error" : message };
    case "policyRefusal":
      return { success: false, error: message, errorCode: error.errorCode };
    case "errorOnly":
    case "fileNotFoundCode":
      return status === 404 && error.code ? { error: message, code: error.code } : { error: message };
  }
}
