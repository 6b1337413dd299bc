import { abortErrorFrom } from "./abort-error.js";
import { ConnectionError, TimeoutError, TroveError } from "./errors.js";
import { requestNotSent } from "./request-not-sent.js";

/**
 * Maps what a fetch (or XHR) attempt threw to the TroveError family. The attempt's own state
 * says why a signal fired: the caller's abort, or the attempt's timeout.
 */
export function errorFromFailure(
  error: unknown,
  attempt: { outer: AbortSignal | undefined; timedOut: boolean; timeout: number },
): TroveError {
  if (error instanceof TroveError) return error;
  if (attempt.outer?.aborted) return abortErrorFrom(attempt.outer);
  if (attempt.timedOut) {
    return new TimeoutError(`The request timed out after ${attempt.timeout} ms`, {
      code: "TIMEOUT",
      cause: error,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new ConnectionError(`Connection failed: ${detail}`, {
    code: "CONNECTION_ERROR",
    cause: error,
    requestNotSent: requestNotSent(error),
  });
}
