import { TroveError } from "../errors.js";
import { type RetryPolicy, type RetryRequest, retryDelay } from "./retry-policy.js";
import { sleep } from "./signals.js";

/**
 * The retry loop of the fetch transport (the upload-only client's API calls, and every part
 * upload): runs `attempt` until it succeeds or retryDelay (the one decision, ky's too) gives up. Anything that is not
 * a TroveError (for example the upload engine's pause interruption) passes through untouched.
 */
export async function withRetry<T>(
  attempt: (retry: number) => Promise<T>,
  request: RetryRequest,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt(retry);
    } catch (error) {
      if (!(error instanceof TroveError)) throw error;
      const delay = retryDelay(error, retry + 1, request, policy);
      if (delay === undefined) throw error;
      await sleep(delay, signal);
    }
  }
}
