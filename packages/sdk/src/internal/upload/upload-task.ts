import { abortErrorFrom } from "../request/index.js";
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
  /** The upload is one request that cannot be interrupted: `pause()` is refused from now on. */
  unpausable(): void;
}

/**
 * The handle `upload()` returns. It is a promise of the result (`await client.upload(file)`, or
 * `task.promise`) with controls:
 * - `pause()` starts no new part and aborts the parts in flight; `resume()` sends them again.
 *   A pause costs the bytes of the parts in flight (up to `concurrency` parts, 5 MiB or more
 *   each): they go again on resume. `UploadProgress.confirmed` shows what is safe.
 *   Requests that must not run twice (the direct upload POST, multipart start and complete)
 *   are never interrupted: a pause takes effect after them.
 * - `pausable` says whether pause() can hold the upload. A direct upload (at most
 *   `multipartThreshold` bytes) is one request that cannot be interrupted, so it is not pausable:
 *   `pause()` then does nothing and returns false. Known at once for a File, Blob or bytes; for a
 *   stream or a file path it is true until the size is known and the upload turns out direct.
 * - `abort()` (or the caller's `signal`) stops every request and timer; the promise rejects
 *   with AbortError.
 */
export interface UploadTask extends PromiseLike<UploadResult> {
  readonly promise: Promise<UploadResult>;
  readonly paused: boolean;
  readonly pausable: boolean;
  /** Whether the upload is now paused: false when it is not pausable or has ended. */
  pause(): boolean;
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
  pausable = true,
): UploadTask {
  const task = new AbortController();
  let run = new AbortController();
  let paused = false;
  let settled = false;
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
    unpausable() {
      pausable = false;
    },
    async wait() {
      if (paused && !task.signal.aborted) await new Promise<void>((resolve) => waiting.push(resolve));
      if (task.signal.aborted) throw abortErrorFrom(task.signal);
    },
  }).finally(() => {
    settled = true;
    signal?.removeEventListener("abort", onAbort);
  });
  return {
    promise,
    get paused() {
      return paused;
    },
    get pausable() {
      return pausable;
    },
    pause() {
      if (paused) return true;
      if (!pausable || settled || task.signal.aborted) return false;
      paused = true;
      run.abort("paused");
      return true;
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
