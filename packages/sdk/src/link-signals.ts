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
