/**
 * How the google_cloud reader's HTTP exchanges fail: an abort becomes `timeout`, the address
 * guard's refusal `forbidden_address`, anything else the network did `unavailable`.
 */
import type { Readable } from "node:stream";
import { RemoteFetchError } from "../../network/index.js";
import { OriginError, originError } from "./origin-error.js";

/**
 * Settles with `pending`, or rejects as soon as `signal` aborts: undici only honours an abort once
 * a request has a connection, and a shared token fetch is not tied to any one caller's signal.
 * `abandon` disposes of a value that arrives after the abort.
 */
export function untilAborted<T>(
  pending: Promise<T>,
  signal: AbortSignal,
  abandon: (late: T) => void = () => {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      pending.then(abandon, () => {});
      reject(signal.reason);
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) abandon(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The OriginError for a failed exchange with `what` ("storage endpoint", "token endpoint").
 * An OriginError passes through; the guard's own message and detail stay out of the message
 * (they name the resolved address) and go to `detail`.
 */
export function exchangeFailure(
  error: unknown,
  signal: AbortSignal,
  sourceName: string,
  what: string,
): OriginError {
  if (error instanceof OriginError) return error;
  if (signal.aborted) return originError("timeout", sourceName, `${what} did not answer in time`);
  if (error instanceof RemoteFetchError && error.code === "REMOTE_URL_FORBIDDEN") {
    return originError("forbidden_address", sourceName, `${what} resolves to a forbidden address`, {
      detail: error.detail,
    });
  }
  const code = (error as { code?: unknown }).code;
  return originError("unavailable", sourceName, `${what} could not be reached`, {
    detail: error instanceof RemoteFetchError ? error.detail : typeof code === "string" ? code : undefined,
  });
}

/** Drops a response body we will not read (an error answer), without buffering it. */
export function discard(body: Readable): void {
  body.on("error", () => {});
  body.destroy();
}
