import { AbortError } from "./errors.js";

/** The AbortError for an aborted signal; the signal's reason is kept as the cause. */
export function abortErrorFrom(signal: AbortSignal | undefined): AbortError {
  return new AbortError("The operation was aborted", { code: "ABORTED", cause: signal?.reason });
}
