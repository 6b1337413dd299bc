/**
 * The one error type of origin readers. `kind` says what happened; `status` is what the delivery
 * host answers with; `message` names the source and the cause and is safe to send (no secret, no
 * resolved address); `detail` is for logs only, and never holds a credential either.
 */
import { TRUSTED_RANGES_HINT } from "../../network/remote-fetch-error.js";

export type OriginErrorKind =
  /** The object does not exist at the origin (or the origin hides it as missing). */
  | "not_found"
  /** The origin refused Trove's credentials, or its configuration cannot work (bad key, no access). */
  | "denied"
  /** The origin did not answer within the deadline. */
  | "timeout"
  /** The object is larger than the delivery limit. */
  | "too_large"
  /** The guard refused the address the origin resolves to. */
  | "forbidden_address"
  /** Anything else the origin or the network did (connection refused, 5xx, malformed answer). */
  | "unavailable";

export const ORIGIN_ERROR_STATUS: Readonly<Record<OriginErrorKind, 404 | 413 | 502 | 504>> = {
  not_found: 404,
  denied: 502,
  timeout: 504,
  too_large: 413,
  forbidden_address: 502,
  unavailable: 502,
};

export class OriginError extends Error {
  override name = "OriginError";
  readonly status: 404 | 413 | 502 | 504;
  readonly detail: string | undefined;

  constructor(
    readonly kind: OriginErrorKind,
    message: string,
    options: { detail?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = ORIGIN_ERROR_STATUS[kind];
    this.detail = options.detail;
  }
}

/** The message of each kind for source `name`; `cause` is a short, secret-free reason. */
export function originError(
  kind: OriginErrorKind,
  sourceName: string,
  cause: string,
  options: { detail?: string; cause?: unknown } = {},
): OriginError {
  const what: Record<OriginErrorKind, string> = {
    not_found: "the object does not exist at the origin",
    denied: "the origin refused Trove's credentials",
    timeout: "the origin did not answer in time",
    too_large: "the object is larger than the delivery limit",
    forbidden_address: `the origin's address is not allowed, being private or loopback; ${TRUSTED_RANGES_HINT}`,
    unavailable: "the origin could not be read",
  };
  return new OriginError(kind, `Source "${sourceName}": ${what[kind]} (${cause})`, options);
}
