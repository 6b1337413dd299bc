/**
 * Bounds the transcodes one server instance runs at once (TROVE_VIDEO_CONCURRENCY). ffmpeg uses
 * every core it is given and hundreds of MiB per job; the job runner claims jobs in batches and
 * runs a batch concurrently, so without this a burst of new outputs would start them all at once.
 * Waiters are served in arrival order; nothing is refused (the job queue is the backlog).
 */
export class TranscodeGate {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(private readonly concurrency: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= Math.max(1, this.concurrency)) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#active += 1;
    }
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `active` counts it without a gap.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }
}
