/**
 * Runs the sweep (src/multipart/sweep-sessions.ts) in every instance that runs workers: once at
 * start, then `intervalMs` after each run ends, whether it succeeded or failed.
 *
 * An in-process timer, not a chain of queued jobs: a chain in which each run enqueued the next
 * broke whenever the process died, or the database dropped, between a run and that insert, and
 * sweeping then stopped until a dead worker's lock ran out (minutes). A sweep is safe in several
 * instances at once (each session is claimed with a conditional update, deleting a removed
 * object is a no-op), so each instance keeps its own clock; a little jitter keeps instances
 * started together from sweeping in lockstep.
 */
export interface SweepTimer {
  /** Stops the clock and waits for a run in progress. */
  stop(): Promise<void>;
}

export interface SweepTimerOptions {
  intervalMs: number;
  /** One sweep; a rejection is reported to `onError` and the clock goes on. */
  run: () => Promise<unknown>;
  onError: (error: unknown) => void;
  /** Share of the interval added at random (0.1: up to 10 % later). */
  jitter?: number;
  random?: () => number;
}

export function startSweepTimer(options: SweepTimerOptions): SweepTimer {
  const { intervalMs, run, onError, jitter = 0.1, random = Math.random } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const tick = () => {
    current = run()
      .then(
        () => undefined,
        (error: unknown) => onError(error),
      )
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, intervalMs * (1 + jitter * random()));
        // The sweep never keeps a process alive on its own.
        timer.unref();
      });
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
