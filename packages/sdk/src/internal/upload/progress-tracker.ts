import type { UploadProgress } from "./upload-options.js";

/**
 * Folds the per-request byte counts of an upload into one progress report. A part that fails
 * and is sent again restarts from 0, so `loaded` is the highest total seen rather than the
 * current sum: a progress bar never moves backwards.
 */
export interface ProgressTracker {
  /**
   * Someone listens: then part requests report bytes while in flight (through XHR where it
   * exists), not only when answered.
   */
  readonly listened: boolean;
  /** `bytes` of request `key` (a part index; 0 for a direct upload) have been sent so far. */
  sent(key: number, bytes: number): void;
  /** Request `key`, carrying `bytes`, was answered with a 2xx. */
  confirm(key: number, bytes: number): void;
  /** Several confirmations as one report: the parts a resumed session had already sent. */
  confirmAll(requests: Iterable<readonly [key: number, bytes: number]>): void;
}

// A closure, not a class: private class fields are compiled to WeakMaps and helpers for the
// browsers the upload entry supports, which cost more than this whole file.
export function progressTracker(
  total: number,
  listener: ((progress: UploadProgress) => void) | undefined,
): ProgressTracker {
  const sentBytes = new Map<number, number>();
  let sentSum = 0;
  let loaded = 0;
  let confirmed = 0;
  // Starts at nothing sent, which is not reported by itself.
  let reported = { loaded, confirmed };

  const setSent = (key: number, bytes: number) => {
    sentSum += bytes - (sentBytes.get(key) ?? 0);
    sentBytes.set(key, bytes);
  };
  const report = () => {
    loaded = Math.min(total, Math.max(loaded, sentSum));
    if (reported.loaded === loaded && reported.confirmed === confirmed) return;
    reported = { loaded, confirmed };
    listener?.({ loaded, confirmed, total, percent: total === 0 ? 100 : Math.floor((loaded / total) * 100) });
  };
  const confirmAll = (requests: Iterable<readonly [key: number, bytes: number]>) => {
    for (const [key, bytes] of requests) {
      confirmed += bytes;
      setSent(key, bytes);
    }
    report();
  };
  return {
    listened: listener !== undefined,
    sent(key, bytes) {
      setSent(key, bytes);
      report();
    },
    confirm: (key, bytes) => confirmAll([[key, bytes]]),
    confirmAll,
  };
}
