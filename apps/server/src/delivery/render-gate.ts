/**
 * Admission control for delivery-time renders: at most `concurrency` run at once, at most
 * `queue` more wait, each for at most `waitMs`. A render that cannot start in time is refused
 * with 503 and Retry-After instead of piling up: renders are free for anyone to ask for and
 * cost seconds of CPU and tens of MB each, so an unbounded backlog would let one client starve
 * every other request (and the process's memory).
 *
 *   const gate = new RenderGate({ concurrency: 2, queue: 16, waitMs: 5000 });
 *   await gate.run(() => renderVariant(...));   // or throws RenderBusyError (an HttpError 503)
 */
import { HttpError } from "../errors/http-error.js";

export interface RenderGateOptions {
  /** Renders running at once. */
  concurrency: number;
  /** Renders waiting for a slot; one more is refused at once. */
  queue: number;
  /** Longest wait for a slot, ms. */
  waitMs: number;
}

/** 503: the renderer is saturated; try again after `retryAfterSeconds`. */
export class RenderBusyError extends HttpError {
  constructor(retryAfterSeconds: number) {
    super(503, `The image renderer is busy; retry in ${retryAfterSeconds} seconds`, {
      retryAfterSeconds,
    });
  }
}

interface Waiter {
  start(): void;
}

export class RenderGate {
  #running = 0;
  readonly #waiting: Waiter[] = [];
  readonly #options: RenderGateOptions;
  readonly #retryAfterSeconds: number;

  constructor(options: RenderGateOptions) {
    this.#options = options;
    this.#retryAfterSeconds = Math.max(1, Math.ceil(options.waitMs / 1000));
  }

  /** Renders running now and waiting now (for tests and metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #acquire(): Promise<void> {
    if (this.#running < this.#options.concurrency) {
      this.#running++;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.#options.queue) {
      return Promise.reject(new RenderBusyError(this.#retryAfterSeconds));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        reject(new RenderBusyError(this.#retryAfterSeconds));
      }, this.#options.waitMs);
      this.#waiting.push(waiter);
    });
  }

  /** Hands the slot to the longest waiter, or frees it. */
  #release(): void {
    const next = this.#waiting.shift();
    if (next) next.start();
    else this.#running--;
  }
}
