/**
 * Human-readable sizes, speeds and durations for the rows and the total. Decimal units (1 kB =
 * 1,000 bytes), as file managers and `@trove/react`'s uploader print them, through Intl so the
 * numbers follow the browser's language.
 */

const UNITS = ["kilobyte", "megabyte", "gigabyte", "terabyte"] as const;

/** `999 B`, `1.2 kB`, `12.3 MB`, `150 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 999.5) return `${Math.round(bytes)} B`;
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 999.95 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = value >= 99.95 ? 0 : 1;
  return new Intl.NumberFormat(undefined, {
    style: "unit",
    unit: UNITS[unit],
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} sec`;
  return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} sec`;
}

/**
 * Bytes per second over the last few seconds of reports, so the speed follows the connection as
 * it is now (a pause or a slow start does not drag it down for the rest of the upload).
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
