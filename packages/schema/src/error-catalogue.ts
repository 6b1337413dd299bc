/**
 * The error catalogue: every code the server sends, declared once with the statuses it goes
 * with, the envelope groups whose bodies carry it and its message where that is fixed; the
 * default code and title of each status; and the messages that are part of the wire contract.
 * The server types its `HttpError` codes with `ErrorCode` and renders its envelopes from here
 * (./error-envelope.ts); the SDK types `error.code` with it and names a code-less failure with
 * `errorCodeForStatus`, so a status never means two codes. Zod-free: the SDK's upload entry
 * imports it.
 */
import type { ResponseGroup } from "./error-groups.js";

/** One error code as the server sends it. */
export interface ErrorDeclaration {
  /** The statuses it is sent with; the first is its own when `statusDefault` is set. */
  readonly statuses: readonly number[];
  /**
   * The groups whose envelopes carry it (./error-envelopes.ts): upload and admin bodies carry
   * every `errorCode`, multipart ones a policy refusal's, files' rename 404 its `code`. A code no
   * body carries (RATE_LIMITED) only names a status for the SDK.
   */
  readonly groups: readonly ResponseGroup[];
  /** The code of a failure of its first status whose body names none (`errorCodeForStatus`). */
  readonly statusDefault?: true;
  /** A refusal of an upload policy (upload tokens, public keys that carry one). */
  readonly policy?: true;
  /** Sent as `code` (rename's 404), not `errorCode`. */
  readonly field?: "code";
  /** The message the server sends with it, where it is always the same. */
  readonly message?: string;
}

/** The groups whose envelopes carry every `errorCode`. */
const CODED: readonly ResponseGroup[] = ["upload", "admin"];
/** Upload-policy refusals reach the client on both upload paths. */
const UPLOADS: readonly ResponseGroup[] = ["upload", "multipart"];

/** Every error code, once. Order is the order of `ERROR_CODES` (and of the OpenAPI enum). */
export const ERROR_CATALOGUE = {
  UNAUTHORIZED: { statuses: [401], groups: CODED, statusDefault: true },
  FORBIDDEN: { statuses: [403], groups: CODED, statusDefault: true },
  VALIDATION_FAILED: { statuses: [400], groups: CODED, statusDefault: true },
  INVALID_TRANSFORM: { statuses: [400], groups: ["upload"] },
  INVALID_METADATA: { statuses: [400], groups: ["upload"] },
  UNSUPPORTED_MEDIA_TYPE: { statuses: [415, 400], groups: ["upload"], statusDefault: true },
  FILE_TOO_LARGE: { statuses: [413], groups: UPLOADS, statusDefault: true, policy: true },
  // A 0-byte upload, on every upload path: there is nothing to store or show.
  EMPTY_FILE: { statuses: [400], groups: ["upload"], message: "File is empty" },
  IMAGE_TOO_LARGE: { statuses: [400], groups: ["upload"] },
  REMOTE_URL_FORBIDDEN: { statuses: [400], groups: ["upload"] },
  // 400 when retrying cannot help, 502 when the upstream may recover.
  REMOTE_FETCH_FAILED: { statuses: [400, 502], groups: ["upload"] },
  // A 429's code: its body is `{ error, message, retryAfterSeconds }` in every group.
  RATE_LIMITED: { statuses: [429], groups: [], statusDefault: true },
  FILE_NOT_FOUND: { statuses: [404], groups: ["files"], field: "code" },
  INTERNAL_ERROR: { statuses: [500], groups: CODED, statusDefault: true },
  // The server's defaults for statuses no rule names (404, 409, 503).
  NOT_FOUND: { statuses: [404], groups: CODED, statusDefault: true },
  CONFLICT: { statuses: [409], groups: CODED, statusDefault: true },
  SERVICE_UNAVAILABLE: { statuses: [503], groups: CODED, statusDefault: true },
  // An API key past its `expires_at`: every group's 401 carries it.
  KEY_EXPIRED: { statuses: [401], groups: ["upload", "multipart", "files", "folders", "sources", "other"] },
  // Admin API: a workspace delete refused while the workspace holds files.
  WORKSPACE_NOT_EMPTY: { statuses: [409], groups: ["admin"] },
  TYPE_NOT_ALLOWED: { statuses: [415], groups: UPLOADS, policy: true },
  FOLDER_NOT_ALLOWED: { statuses: [403], groups: UPLOADS, policy: true },
  REMOTE_NOT_ALLOWED: { statuses: [403], groups: UPLOADS, policy: true },
  MULTIPART_NOT_ALLOWED: { statuses: [403], groups: UPLOADS, policy: true },
  TRANSFORM_NOT_ALLOWED: { statuses: [403], groups: UPLOADS, policy: true },
  TOKEN_EXPIRED: {
    statuses: [401],
    groups: UPLOADS,
    policy: true,
    message: "This upload token has expired; request a new one",
  },
  TOKEN_EXHAUSTED: {
    statuses: [403],
    groups: UPLOADS,
    policy: true,
    message: "This upload token has created all the files it may create",
  },
} as const satisfies Record<string, ErrorDeclaration>;

type Catalogue = typeof ERROR_CATALOGUE;
/** Every code the server sends: `HttpError`'s `errorCode`, the SDK's server codes. */
export type ErrorCode = keyof Catalogue;
/** The codes of upload-policy refusals. */
export type UploadPolicyErrorCode = {
  [Code in ErrorCode]: Catalogue[Code] extends { policy: true } ? Code : never;
}[ErrorCode];

const ENTRIES = Object.entries(ERROR_CATALOGUE) as [ErrorCode, ErrorDeclaration][];

export const ERROR_CODES = ENTRIES.map(([code]) => code) as readonly ErrorCode[] as readonly [
  ErrorCode,
  ...ErrorCode[],
];

/** Refusals of an upload policy: the multipart envelope carries these codes (./error-envelopes.ts). */
export const UPLOAD_POLICY_ERROR_CODES: readonly UploadPolicyErrorCode[] = ENTRIES.filter(
  ([, declared]) => declared.policy,
).map(([code]) => code as UploadPolicyErrorCode);

/** The code of a failure whose body names none (upload `errorCode`, the SDK's `error.code`). */
const CODE_BY_STATUS = new Map<number, ErrorCode>(
  ENTRIES.filter(([, declared]) => declared.statusDefault).map(([code, declared]) => [
    declared.statuses[0] as number,
    code,
  ]),
);

/** The default code of a status: other 5xx are INTERNAL_ERROR, other 4xx VALIDATION_FAILED. */
export function errorCodeForStatus(status: number): ErrorCode {
  return CODE_BY_STATUS.get(status) ?? (status >= 500 ? "INTERNAL_ERROR" : "VALIDATION_FAILED");
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
