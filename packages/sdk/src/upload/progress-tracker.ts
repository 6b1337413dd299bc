import type { UploadProgress } from "./upload-options.js";

/**
 * Folds the per-request byte counts of an upload into one progress report. A part that fails
 * and is sent again restarts from 0, so `loaded` is the highest total seen rather than the
 * current sum: a progress bar never moves backwards.
 */
export class ProgressTracker {
  readonly #total: number;
  readonly #listener: ((progress: UploadProgress) => void) | undefined;
  readonly #sent = new Map<number, number>();
  #sentSum = 0;
  #loaded = 0;
  #confirmed = 0;
  /** What the listener last heard; starts at nothing sent, which is not reported by itself. */
  #reported: UploadProgress;

  constructor(total: number, listener: ((progress: UploadProgress) => void) | undefined) {
    this.#total = total;
    this.#listener = listener;
    this.#reported = { loaded: 0, confirmed: 0, total, percent: 0 };
  }

  /** `bytes` of request `key` (a part index; 0 for a direct upload) have been sent so far. */
  sent(key: number, bytes: number): void {
    this.#setSent(key, bytes);
    this.#report();
  }

  /** Request `key`, carrying `bytes`, was answered with a 2xx. */
  confirm(key: number, bytes: number): void {
    this.confirmAll([[key, bytes]]);
  }

  /** Several confirmations as one report: the parts a resumed session had already sent. */
  confirmAll(requests: Iterable<readonly [key: number, bytes: number]>): void {
    for (const [key, bytes] of requests) {
      this.#confirmed += bytes;
      this.#setSent(key, bytes);
    }
    this.#report();
  }

  #setSent(key: number, bytes: number): void {
    this.#sentSum += bytes - (this.#sent.get(key) ?? 0);
    this.#sent.set(key, bytes);
  }

  #report(): void {
    this.#loaded = Math.min(this.#total, Math.max(this.#loaded, this.#sentSum));
    const reported = this.#reported;
    if (reported.loaded === this.#loaded && reported.confirmed === this.#confirmed) return;
    this.#reported = {
      loaded: this.#loaded,
      confirmed: this.#confirmed,
      total: this.#total,
      percent: this.#total === 0 ? 100 : Math.floor((this.#loaded / this.#total) * 100),
    };
    this.#listener?.({ ...this.#reported });
  }
}
