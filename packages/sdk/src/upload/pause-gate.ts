import { abortErrorFrom } from "../abort-error.js";

/**
 * Pause and resume for the multipart engine. `signal` belongs to the current run: it aborts when
 * the upload is paused (interrupting the parts in flight, which are sent again on resume) and
 * when the whole upload is aborted. `wait()` holds back new work while paused, with no timer.
 */
export class PauseGate {
  readonly #task: AbortSignal;
  #run = new AbortController();
  #paused = false;
  #waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(task: AbortSignal) {
    this.#task = task;
    task.addEventListener(
      "abort",
      () => {
        this.#run.abort(task.reason);
        for (const waiter of this.#waiters.splice(0)) waiter.reject(abortErrorFrom(task));
      },
      { once: true },
    );
  }

  get paused(): boolean {
    return this.#paused;
  }

  get signal(): AbortSignal {
    return this.#run.signal;
  }

  pause(): void {
    if (this.#paused || this.#task.aborted) return;
    this.#paused = true;
    this.#run.abort("paused");
  }

  resume(): void {
    if (!this.#paused || this.#task.aborted) return;
    this.#paused = false;
    this.#run = new AbortController();
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
  }

  /** Resolves at once while running, else on resume; rejects with AbortError on abort. */
  wait(): Promise<void> {
    if (this.#task.aborted) return Promise.reject(abortErrorFrom(this.#task));
    if (!this.#paused) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }
}
