/** Human-readable sizes, speeds and durations for the rows and the total. */

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`;
}

/**
 * Bytes per second over the last few seconds of progress reports, so the speed follows the
 * connection as it is now rather than averaging over a slow start.
 */
export function transferRate(windowMs = 5000) {
  let samples: Array<{ at: number; loaded: number }> = [];
  return {
    add(loaded: number, at = performance.now()): void {
      samples.push({ at, loaded });
      samples = samples.filter((sample) => sample.at >= at - windowMs);
    },
    /** Bytes per second, or undefined until two reports a moment apart exist. */
    perSecond(): number | undefined {
      const first = samples[0];
      const last = samples.at(-1);
      if (!first || !last || last.at - first.at < 250) return undefined;
      return ((last.loaded - first.loaded) * 1000) / (last.at - first.at);
    },
    reset(): void {
      samples = [];
    },
  };
}
