import { AbortError } from "../errors.js";

/** The AbortError for an aborted signal; the signal's reason is kept as the cause. */
export function abortErrorFrom(signal: AbortSignal | undefined): AbortError {
  return new AbortError("The operation was aborted", { code: "ABORTED", cause: signal?.reason });
}

/**
 * A signal that aborts when any of `signals` does (undefined ones are skipped); `dispose()` removes
 * the listeners so a long-lived signal does not collect one per request. (AbortSignal.any is
 * missing from runtimes the SDK supports.)
 */
export function linkSignals(...signals: (AbortSignal | undefined)[]): {
  signal: AbortSignal;
  dispose: () => void;
} {
  const controller = new AbortController();
  const listeners = signals.map((signal) => {
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener("abort", onAbort, { once: true });
    return () => signal?.removeEventListener("abort", onAbort);
  });
  return {
    signal: controller.signal,
    dispose: () => {
      for (const remove of listeners) remove();
    },
  };
}

/** Waits `ms`; an abort clears the timer at once and rejects with AbortError. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortErrorFrom(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortErrorFrom(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
