import { abortErrorFrom } from "../abort-error.js";
import type { UploadResult } from "./upload-result.js";

/** What a running upload sees of its task. */
export interface UploadControl {
  /** Aborted by `task.abort()` or the caller's `signal`; stops everything. */
  readonly signal: AbortSignal;
  /**
   * Belongs to the current run: aborts when the upload is paused (interrupting the parts in
   * flight, which are sent again on resume) and when the whole upload is aborted.
   */
  readonly runSignal: AbortSignal;
  /** Holds back new work while paused, with no timer: resolves at once while running, else on
   * resume; rejects with AbortError on abort. */
  wait(): Promise<void>;
}

/**
 * The handle `upload()` returns. It is a promise of the result (`await client.upload(file)`, or
 * `task.promise`) with controls:
 * - `pause()` starts no new part and aborts the parts in flight; `resume()` sends them again.
 *   Requests that must not run twice (the direct upload POST, multipart start and complete)
 *   are never interrupted: a pause takes effect after them.
 * - `abort()` (or the caller's `signal`) stops every request and timer; the promise rejects
 *   with AbortError.
 */
export interface UploadTask extends PromiseLike<UploadResult> {
  readonly promise: Promise<UploadResult>;
  readonly paused: boolean;
  pause(): void;
  resume(): void;
  abort(reason?: unknown): void;
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<UploadResult | R>;
  finally(onFinally?: (() => void) | null): Promise<UploadResult>;
}

// A plain object, not a class with private fields: see progress-tracker.ts. The pause gate is
// part of it: `run` aborts with the task and on pause, and is replaced on resume.
export function uploadTask(
  work: (control: UploadControl) => Promise<UploadResult>,
  signal?: AbortSignal,
): UploadTask {
  const task = new AbortController();
  let run = new AbortController();
  let paused = false;
  let waiting: (() => void)[] = [];
  const release = () => {
    for (const resolve of waiting) resolve();
    waiting = [];
  };
  const abort = (reason?: unknown) => task.abort(reason);
  const onAbort = () => abort(signal?.reason);
  task.signal.addEventListener(
    "abort",
    () => {
      run.abort(task.signal.reason);
      release();
    },
    { once: true },
  );
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  const promise = work({
    signal: task.signal,
    get runSignal() {
      return run.signal;
    },
    async wait() {
      if (paused && !task.signal.aborted) await new Promise<void>((resolve) => waiting.push(resolve));
      if (task.signal.aborted) throw abortErrorFrom(task.signal);
    },
  }).finally(() => signal?.removeEventListener("abort", onAbort));
  return {
    promise,
    get paused() {
      return paused;
    },
    pause() {
      if (paused || task.signal.aborted) return;
      paused = true;
      run.abort("paused");
    },
    resume() {
      if (!paused || task.signal.aborted) return;
      paused = false;
      run = new AbortController();
      release();
    },
    abort,
    // biome-ignore lint/suspicious/noThenProperty: the task is deliberately awaitable.
    then: (onFulfilled, onRejected) => promise.then(onFulfilled, onRejected),
    catch: (onRejected) => promise.catch(onRejected),
    finally: (onFinally) => promise.finally(onFinally),
  };
}
