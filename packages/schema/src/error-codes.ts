/**
 * The error catalogue's code half: every code the server sends, declared once with the statuses
 * it goes with besides its status default (./error-catalogue.ts), the envelope groups whose
 * bodies carry it, and its message where that is fixed. The server types `HttpError`'s codes
 * with `ErrorCode`; the SDK's `TroveErrorCode` includes it. Zod-free.
 */
import { type DefaultErrorCode, ERROR_CODE_BY_STATUS } from "./error-catalogue.js";
import type { ResponseGroup } from "./error-groups.js";

/** One error code as the server sends it. */
export interface ErrorDeclaration {
  /** Statuses it is sent with besides the one it is the default of (./error-catalogue.ts). */
  readonly statuses?: readonly number[];
  /**
   * The groups whose envelopes carry it (./error-envelopes.ts): upload and admin bodies carry
   * every `errorCode`, multipart ones a policy refusal's, files' rename 404 its `code`. A code no
   * body carries (RATE_LIMITED) only names a status for the SDK.
   */
  readonly groups: readonly ResponseGroup[];
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

/**
 * Every error code, once. Order is the order of `ERROR_CODES` (and of the OpenAPI enum). A code
 * without `statuses` is sent only with the status it is the default of.
 */
export const ERROR_CATALOGUE = {
  UNAUTHORIZED: { groups: CODED },
  FORBIDDEN: { groups: CODED },
  VALIDATION_FAILED: { groups: CODED },
  INVALID_TRANSFORM: { statuses: [400], groups: ["upload"] },
  INVALID_METADATA: { statuses: [400], groups: ["upload"] },
  // 415 for a wrong Content-Type; 400 for a body that is no image it can read.
  UNSUPPORTED_MEDIA_TYPE: { statuses: [400], groups: ["upload"] },
  FILE_TOO_LARGE: { groups: UPLOADS, policy: true },
  // A 0-byte upload, on every upload path: there is nothing to store or show.
  EMPTY_FILE: { statuses: [400], groups: ["upload"], message: "File is empty" },
  IMAGE_TOO_LARGE: { statuses: [400], groups: ["upload"] },
  REMOTE_URL_FORBIDDEN: { statuses: [400], groups: ["upload"] },
  // 400 when retrying cannot help, 502 when the upstream may recover.
  REMOTE_FETCH_FAILED: { statuses: [400, 502], groups: ["upload"] },
  // A 429's code: its body is `{ error, message, retryAfterSeconds }` in every group.
  RATE_LIMITED: { groups: [] },
  FILE_NOT_FOUND: { statuses: [404], groups: ["files"], field: "code" },
  INTERNAL_ERROR: { groups: CODED },
  // The server's defaults for statuses no rule names (404, 409, 503).
  NOT_FOUND: { groups: CODED },
  CONFLICT: { groups: CODED },
  SERVICE_UNAVAILABLE: { groups: CODED },
  // An API key past its `expires_at`: every group's 401 carries it.
  KEY_EXPIRED: { statuses: [401], groups: ["upload", "multipart", "files", "folders", "sources", "other"] },
  // Admin API: a workspace delete refused while the workspace holds files.
  WORKSPACE_NOT_EMPTY: { statuses: [409], groups: ["admin"] },
  TYPE_NOT_ALLOWED: { statuses: [415], groups: UPLOADS, policy: true },
  FOLDER_NOT_ALLOWED: { statuses: [403], groups: UPLOADS, policy: true },
  REMOTE_NOT_ALLOWED: { statuses: [403], groups: UPLOADS, policy: true },
  MULTIPART_NOT_ALLOWED: { statuses: [403], groups: UPLOADS, policy: true },
  TRANSFORM_NOT_ALLOWED: { statuses: [403], groups: UPLOADS, policy: true },
  // An image whose pixel size or aspect ratio is outside the policy's min/max (./upload-tokens.ts).
  IMAGE_DIMENSIONS_NOT_ALLOWED: { statuses: [422], groups: UPLOADS, policy: true },
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
  // An upload that would take its workspace past `max_files` or `max_storage_bytes` (admin API):
  // the workspace's upload policy, refused with its code on every upload path like the others.
  QUOTA_EXCEEDED: { statuses: [403], groups: UPLOADS, policy: true },
  // A console session's request without its `x-csrf-token` (or with a wrong one): one envelope,
  // `{ success: false, error, message, errorCode }`, in every group (./error-envelopes.ts).
  CSRF_REJECTED: {
    statuses: [403],
    groups: ["upload", "admin", "multipart", "files", "folders", "sources", "other"],
    message: "Missing or wrong x-csrf-token header for this console session",
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

/** Every status `code` is sent with: the one it is the default of first, then its others. */
export function statusesOfErrorCode(code: ErrorCode): readonly number[] {
  const own = Object.entries(ERROR_CODE_BY_STATUS)
    .filter(([, named]) => named === code)
    .map(([status]) => Number(status));
  return [...own, ...((ERROR_CATALOGUE[code] as ErrorDeclaration).statuses ?? [])];
}

/**
 * Every status's default code (./error-catalogue.ts) is a declared code: the constraint fails to
 * compile otherwise. Types only, so nothing of it reaches a bundle.
 */
type DeclaredCode<Code extends ErrorCode> = Code;
export type DeclaredDefaultErrorCode = DeclaredCode<DefaultErrorCode>;
