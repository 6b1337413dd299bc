import { ConnectionError, TimeoutError, TroveError } from "../errors.js";
import type { RequestSettings } from "./api-call.js";
import { errorFromResponse } from "./error-from-response.js";
import type { HttpAnswer } from "./http-answer.js";
import { abortErrorFrom, linkSignals } from "./signals.js";

/** What a failure's message and retry rule need of the client. */
export type FailureContext = Pick<RequestSettings, "baseUrl" | "requestNotSent">;

/**
 * One attempt of a request, API call or part alike. `send` gets a signal that aborts with
 * `outer` or after `timeout` ms (not AbortSignal.any/timeout: missing from runtimes the SDK
 * supports); a non-2xx answer becomes the TroveError for its status, and whatever the attempt
 * throws is mapped to the family. The timer and the listener are cleared when it ends.
 */
export async function sendAttempt<T>(
  ctx: FailureContext,
  outer: AbortSignal | undefined,
  timeout: number,
  send: (signal: AbortSignal) => Promise<HttpAnswer>,
  read: (response: HttpAnswer) => Promise<T>,
): Promise<T> {
  const timer = new AbortController();
  const linked = linkSignals(outer, timer.signal);
  const id = timeout > 0 && Number.isFinite(timeout) ? setTimeout(() => timer.abort(), timeout) : undefined;
  try {
    const response = await send(linked.signal);
    if (!response.ok) throw await errorFromResponse(response);
    return await read(response);
  } catch (error) {
    throw errorFromFailure(ctx, error, outer, timer.signal.aborted, timeout);
  } finally {
    clearTimeout(id);
    linked.dispose();
  }
}

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
