/**
 * The signal of one attempt: aborted when the outer signal aborts or when `timeout` ms pass.
 * `dispose()` clears the timer and the listener, so a finished attempt leaves nothing behind.
 * (Not AbortSignal.any/timeout: those are missing from runtimes the SDK supports.)
 */
export interface AttemptSignal {
  readonly signal: AbortSignal;
  readonly timedOut: () => boolean;
  readonly dispose: () => void;
}

export function attemptSignal(outer: AbortSignal | undefined, timeout: number): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener("abort", onAbort, { once: true });
  const timer =
    timeout > 0 && Number.isFinite(timeout)
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeout)
      : undefined;
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}
