/**
 * The error catalogue's status half: which code and title a status carries by default, and the
 * messages that are part of the wire contract. Each code itself is declared in ./error-codes.ts
 * (its other statuses, the groups that carry it, its fixed message); a default code's status is
 * the one named here. The server renders its envelopes from both (./error-envelope.ts) and the
 * SDK names a code-less failure with `errorCodeForStatus`, so a status never means two codes.
 * Zod-free and small: the SDK's upload entry imports this file, not ./error-codes.ts.
 */
import type { ResponseGroup } from "./error-groups.js";

/** The code of a failure whose body names none (upload `errorCode`, the SDK's `error.code`). */
export const ERROR_CODE_BY_STATUS = {
  400: "VALIDATION_FAILED",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "FILE_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "RATE_LIMITED",
  500: "INTERNAL_ERROR",
  503: "SERVICE_UNAVAILABLE",
} as const;

/**
 * A status's default code. Each is declared in ./error-codes.ts, which checks that (this file
 * does not import it, so the upload entry stays small and the two halves form no cycle).
 */
export type DefaultErrorCode = (typeof ERROR_CODE_BY_STATUS)[keyof typeof ERROR_CODE_BY_STATUS];

/** The default code of a status: other 5xx are INTERNAL_ERROR, other 4xx VALIDATION_FAILED. */
export function errorCodeForStatus(status: number): DefaultErrorCode {
  return (
    (ERROR_CODE_BY_STATUS as Readonly<Record<number, DefaultErrorCode>>)[status] ??
    (status >= 500 ? "INTERNAL_ERROR" : "VALIDATION_FAILED")
  );
}

const TITLE_BY_STATUS: Readonly<Record<number, string>> = {
  400: "Validation failed",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The `error` of `{ error, message }` envelopes by status ("Validation failed" for 400). */
export function errorTitleForStatus(status: number): string {
  return TITLE_BY_STATUS[status] ?? (status >= 500 ? "Internal Server Error" : "Bad Request");
}

/** Messages the spec fixes, word for word. */
export const ERROR_MESSAGES = {
  /** 401 everywhere but sources. */
  unauthorized: "Invalid or missing API key",
  /** 401 on sources: `{ error, message }`. */
  sourcesUnauthorizedError: "Invalid API key.",
  sourcesUnauthorizedMessage: "The API key is invalid, inactive, or deleted.",
  /** 403 of a private-key endpoint called with a public key. */
  privateKeyRequired: "This endpoint requires a private API key",
  /** The message of every 5xx that is not a 503's advice or an exposed gateway error. */
  internal: "An unexpected error occurred",
  /** 500 of file details: `{ error, message }` with this title. */
  fileDetailsFailed: "Failed to get file details",
  fileDeleted: "File deleted successfully",
  /** Multipart part and complete refusals. */
  sessionExpired: "Session expired",
  sessionNotFound: "Session not found",
  /** Source create or update with a config that does not match its type. */
  sourceConfigInvalid: "Configuration is invalid for the specified type",
  sourceNameTaken: "Origin name already exists in this workspace",
} as const;

/** The group's 404 message: "File not found", "Folder not found", ... */
export function notFoundMessage(group: ResponseGroup): string {
  switch (group) {
    case "files":
      return "File not found";
    case "folders":
      return "Folder not found";
    case "sources":
      return "Source not found";
    case "multipart":
      return ERROR_MESSAGES.sessionNotFound;
    default:
      return "Not Found";
  }
}

/** The 429 message: `retryAfterSeconds` in words. */
export function rateLimitMessage(seconds: number): string {
  return `Rate limit exceeded, retry in ${seconds} seconds`;
}
