import { errorFromFailure, type FailureContext } from "./error-from-failure.js";
import { errorFromResponse } from "./error-from-response.js";
import type { HttpAnswer } from "./http-answer.js";
import { linkSignals } from "./signals.js";

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
