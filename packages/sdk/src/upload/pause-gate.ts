import { abortErrorFrom } from "../abort-error.js";

/**
 * Pause and resume for the multipart engine. `signal` belongs to the current run: it aborts when
 * the upload is paused (interrupting the parts in flight, which are sent again on resume) and
 * when the whole upload is aborted. `wait()` holds back new work while paused, with no timer.
 */
export interface PauseGate {
  readonly paused: boolean;
  readonly signal: AbortSignal;
  pause(): void;
  resume(): void;
  /** Resolves at once while running, else on resume; rejects with AbortError on abort. */
  wait(): Promise<void>;
}

// A closure, not a class with private fields: see progress-tracker.ts.
export function pauseGate(task: AbortSignal): PauseGate {
  let run = new AbortController();
  let paused = false;
  let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const release = (settle: (waiter: (typeof waiters)[number]) => void) => {
    for (const waiter of waiters) settle(waiter);
    waiters = [];
  };
  task.addEventListener(
    "abort",
    () => {
      run.abort(task.reason);
      release((waiter) => waiter.reject(abortErrorFrom(task)));
    },
    { once: true },
  );
  return {
    get paused() {
      return paused;
    },
    get signal() {
      return run.signal;
    },
    pause() {
      if (paused || task.aborted) return;
      paused = true;
      run.abort("paused");
    },
    resume() {
      if (!paused || task.aborted) return;
      paused = false;
      run = new AbortController();
      release((waiter) => waiter.resolve());
    },
    wait() {
      if (task.aborted) return Promise.reject(abortErrorFrom(task));
      if (!paused) return Promise.resolve();
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
  };
}
