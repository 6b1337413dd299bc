import { type PauseGate, pauseGate } from "./pause-gate.js";
import type { UploadResult } from "./upload-result.js";

/** What a running upload sees of its task. */
export interface UploadControl {
  /** Aborted by `task.abort()` or the caller's `signal`; stops everything. */
  readonly signal: AbortSignal;
  readonly gate: PauseGate;
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

// A plain object, not a class with private fields: see progress-tracker.ts.
export function uploadTask(
  run: (control: UploadControl) => Promise<UploadResult>,
  signal?: AbortSignal,
): UploadTask {
  const controller = new AbortController();
  const gate = pauseGate(controller.signal);
  const abort = (reason?: unknown) => controller.abort(reason);
  const onAbort = () => abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  const promise = run({ signal: controller.signal, gate }).finally(() =>
    signal?.removeEventListener("abort", onAbort),
  );
  return {
    promise,
    get paused() {
      return gate.paused;
    },
    // The gate's methods are closures: they can be handed out as they are.
    pause: gate.pause,
    resume: gate.resume,
    abort,
    // biome-ignore lint/suspicious/noThenProperty: the task is deliberately awaitable.
    then: (onFulfilled, onRejected) => promise.then(onFulfilled, onRejected),
    catch: (onRejected) => promise.catch(onRejected),
    finally: (onFinally) => promise.finally(onFinally),
  };
}
