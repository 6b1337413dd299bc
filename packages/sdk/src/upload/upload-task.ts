import { PauseGate } from "./pause-gate.js";
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
export class UploadTask implements PromiseLike<UploadResult> {
  readonly promise: Promise<UploadResult>;
  readonly #controller = new AbortController();
  readonly #gate = new PauseGate(this.#controller.signal);

  constructor(run: (control: UploadControl) => Promise<UploadResult>, signal?: AbortSignal) {
    const onAbort = () => this.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    this.promise = run({ signal: this.#controller.signal, gate: this.#gate }).finally(() =>
      signal?.removeEventListener("abort", onAbort),
    );
  }

  get paused(): boolean {
    return this.#gate.paused;
  }

  pause(): void {
    this.#gate.pause();
  }

  resume(): void {
    this.#gate.resume();
  }

  abort(reason?: unknown): void {
    this.#controller.abort(reason);
  }

  // biome-ignore lint/suspicious/noThenProperty: the task is deliberately awaitable.
  then<R1 = UploadResult, R2 = never>(
    onFulfilled?: ((value: UploadResult) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.promise.then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<UploadResult | R> {
    return this.promise.catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<UploadResult> {
    return this.promise.finally(onFinally);
  }
}
