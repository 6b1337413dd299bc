import { ConnectionError, TimeoutError, TroveError } from "../errors.js";
import type { RequestSettings } from "./api-call.js";
import { abortErrorFrom } from "./signals.js";

/** What a failure's message and retry rule need of the client. */
export type FailureContext = Pick<RequestSettings, "baseUrl" | "requestNotSent">;

/**
 * What an attempt threw, as a TroveError: the caller's signal means AbortError, the attempt's
 * timer TimeoutError, anything else (the transport's own words in `cause`) ConnectionError.
 */
export function errorFromFailure(
  ctx: FailureContext,
  error: unknown,
  outer: AbortSignal | undefined,
  timedOut: boolean,
  timeout: number,
): TroveError {
  if (error instanceof TroveError) return error;
  if (outer?.aborted) return abortErrorFrom(outer);
  if (timedOut)
    return new TimeoutError(`The request timed out after ${timeout} ms`, { code: "TIMEOUT", cause: error });
  // One message whatever the transport said ("Failed to fetch", "Network request failed",
  // ECONNREFUSED): a browser never tells these causes apart, so the message names them all and
  // the transport's own words stay in `cause`.
  return new ConnectionError(
    `Could not reach ${ctx.baseUrl}: the server may be down, baseUrl may be wrong, or CORS refused this origin`,
    {
      code: "CONNECTION_ERROR",
      cause: error,
      requestNotSent: ctx.requestNotSent?.(error) ?? false,
    },
  );
}
