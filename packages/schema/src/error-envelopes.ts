/**
 * The one table of error envelopes: which envelope a group answers a status with (the spec's
 * "Errors" section plus Trove's choices where it is silent). Both readers take it from here:
 * `buildErrorBody` (./error-envelope.ts) builds the body of each envelope and `errorShapeFor`
 * (./error-shapes.ts) gives its schema to the OpenAPI document, so a body and its documented
 * shape cannot part. Zod-free.
 *
 *   errorEnvelopeOf("files", 404)                         -> "errorOnly"       { error }
 *   errorEnvelopeOf("files", 404, "rename")               -> "fileNotFoundCode" { error, code }
 *   errorEnvelopeOf("multipart", 403, undefined, "TYPE_NOT_ALLOWED") -> "policyRefusal"
 */
import { type ErrorCode, UPLOAD_POLICY_ERROR_CODES } from "./error-codes.js";
import type { ResponseGroup } from "./error-groups.js";

/**
 * The envelopes, by what they hold:
 * - rateLimit: `{ error: "Too Many Requests", message, retryAfterSeconds }` (every 429)
 * - admin: `{ error: title, errorCode, message }`
 * - upload: `{ error: title, success: false, errorCode, message }`
 * - uploadUnauthorized: `{ success: false, error: "Unauthorized", errorCode, message }`
 * - unauthorized: `{ success: false, error: "Unauthorized", message }` (+ errorCode of an expired
 *   key or, in multipart, a policy refusal)
 * - sourcesUnauthorized: the spec's fixed `{ error: "Invalid API key.", message }`
 * - otherUnauthorized: `{ error: "Unauthorized", message }` (+ errorCode of an expired key)
 * - forbidden: `{ error: "Forbidden", message }`
 * - titled: `{ error: title, message }`
 * - failure: `{ success: false, error: message }`
 * - policyRefusal: `{ success: false, error: message, errorCode }` (multipart's upload-policy refusals)
 * - errorOnly: `{ error: message }` (+ `code` on a 404 that has one)
 * - fileNotFoundCode: `{ error: message, code: "FILE_NOT_FOUND" }`
 * A 401's message is the spec's fixed one unless the error carries its own code (./error-envelope.ts);
 * a 5xx's is generic unless it is a 503 or an exposed gateway error.
 */
export type ErrorEnvelopeKind =
  | "rateLimit"
  | "admin"
  | "upload"
  | "uploadUnauthorized"
  | "unauthorized"
  | "sourcesUnauthorized"
  | "otherUnauthorized"
  | "forbidden"
  | "titled"
  | "failure"
  | "policyRefusal"
  | "errorOnly"
  | "fileNotFoundCode";

/**
 * An endpoint whose group answers one status with a shape of its own: the folder-create route
 * answers every malformed request in `{ success: false, error }`, rename's 404 carries `code`.
 */
export type ErrorVariant = "folder-create" | "rename";

interface GroupEnvelopes {
  /** Any status the row does not name, 5xx included. */
  otherwise: ErrorEnvelopeKind;
  status?: Readonly<Partial<Record<number, ErrorEnvelopeKind>>>;
  variants?: Readonly<Partial<Record<ErrorVariant, Readonly<Partial<Record<number, ErrorEnvelopeKind>>>>>>;
  /** The envelope of an upload-policy refusal (UPLOAD_POLICY_ERROR_CODES) of a 4xx other than 401. */
  policyRefusal?: ErrorEnvelopeKind;
}

/** group x status -> envelope. A 429 is `rateLimit` in every group. */
const ENVELOPES: Readonly<Record<ResponseGroup, GroupEnvelopes>> = {
  // Every upload error carries the full `{ error, success, errorCode, message }`.
  upload: { otherwise: "upload", status: { 401: "uploadUnauthorized" } },
  // The admin API (Trove's own) answers every status but 429 alike, its 401 included.
  admin: { otherwise: "admin" },
  multipart: {
    otherwise: "failure",
    // The spec's `{ error, message }` for 403; a body over the limit is refused before routing.
    status: { 401: "unauthorized", 403: "forbidden", 413: "titled" },
    // So that a client learns which rule it broke.
    policyRefusal: "policyRefusal",
  },
  files: {
    otherwise: "titled",
    status: { 401: "unauthorized", 403: "forbidden", 404: "errorOnly" },
    variants: { rename: { 404: "fileNotFoundCode" } },
  },
  folders: {
    otherwise: "titled",
    // Non-empty folder delete (409) is not shown in the spec; Trove answers `{ success: false, error }`.
    status: { 401: "unauthorized", 403: "forbidden", 404: "errorOnly", 409: "failure" },
    variants: { "folder-create": { 400: "failure", 415: "failure" } },
  },
  sources: {
    otherwise: "titled",
    status: { 401: "sourcesUnauthorized", 403: "forbidden", 404: "errorOnly", 409: "errorOnly" },
  },
  // The delivery host, health and URLs no route matched: the spec fixes none of these.
  other: { otherwise: "titled", status: { 401: "otherUnauthorized", 403: "forbidden" } },
};

const POLICY_ERROR_CODES: ReadonlySet<string> = new Set(UPLOAD_POLICY_ERROR_CODES);

/** Whether `errorCode` is an upload-policy refusal's. */
export function isPolicyRefusal(errorCode: ErrorCode | undefined): boolean {
  return errorCode !== undefined && POLICY_ERROR_CODES.has(errorCode);
}

/** The envelope of a failure of `group` with `status`, for an endpoint's variant and an error's code. */
export function errorEnvelopeOf(
  group: ResponseGroup,
  status: number,
  variant?: ErrorVariant,
  errorCode?: ErrorCode,
): ErrorEnvelopeKind {
  if (status === 429) return "rateLimit";
  // A console session's CSRF refusal reads alike on /api/v1, /admin/v1 and /console/api.
  if (errorCode === "CSRF_REJECTED") return "upload";
  const row = ENVELOPES[group];
  if (row.policyRefusal && status !== 401 && status < 500 && isPolicyRefusal(errorCode)) {
    return row.policyRefusal;
  }
  return (
    (variant === undefined ? undefined : row.variants?.[variant]?.[status]) ??
    row.status?.[status] ??
    row.otherwise
  );
}
