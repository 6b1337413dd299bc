import {
  buildErrorBody,
  type ErrorBodyInput,
  type ErrorCode,
  retryAfterSecondsOf,
} from "@trove/schema/zod-free";
import { SDK_ERROR_CODES, type SdkErrorCode, TroveError } from "../internal/errors.js";

/** Every answer of the token route: a credential (or the refusal of one) is never cached. */
export const NO_STORE = { "cache-control": "no-store" } as const;

/** A JSON answer with `no-store`. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...NO_STORE, ...headers },
  });
}

/**
 * A refusal in the upload envelope (`{ error, success: false, errorCode, message }`, the body the
 * SDK already reads for every upload failure), so a page reads the token route's failures as it
 * reads Trove's own.
 */
export function errorResponse(status: number, error: ErrorBodyInput, headers: Record<string, string> = {}) {
  return jsonResponse(status, buildErrorBody("upload", status, error), headers);
}

/**
 * Minting failed upstream. The page learns only Trove's code and message (never a stack, a URL
 * of the backend's network or anything about the key): 502, since the fault is between this
 * backend and Trove, not in the page's request; a 429 stays a 429 with its wait, so the page
 * backs off instead of retrying at once.
 */
export function upstreamFailure(error: unknown): Response {
  if (error instanceof TroveError && error.status === 429) {
    const seconds = error.retryAfterSeconds;
    return errorResponse(
      429,
      { message: "", retryAfterSeconds: seconds },
      { "retry-after": String(retryAfterSecondsOf(seconds)) },
    );
  }
  const fromTrove = error instanceof TroveError && error.status !== undefined;
  return errorResponse(502, {
    title: "Bad Gateway",
    message: fromTrove ? error.message : "Could not reach Trove to mint an upload token",
    errorCode: fromTrove && isServerCode(error.code) ? error.code : undefined,
    expose: true,
  });
}

/** A code from Trove's body, not one the SDK derived (CONNECTION_ERROR, TIMEOUT, …). */
function isServerCode(code: ErrorCode | SdkErrorCode): code is ErrorCode {
  return !(SDK_ERROR_CODES as readonly string[]).includes(code);
}
