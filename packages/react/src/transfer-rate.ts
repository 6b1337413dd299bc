/**
 * Speed and time left of one upload, from the recent progress reports. Only the last few seconds
 * count: an upload that slowed down should say so, not average over its fast start.
 */

/** A progress report: `sent` bytes at `at` ms. */
export interface RateSample {
  at: number;
  sent: number;
}

/** How far back the speed looks, in ms. */
export const RATE_WINDOW_MS = 5_000;
/** Below this span of reports the speed is not shown: two reports 10 ms apart say nothing. */
const MIN_SPAN_MS = 500;

/** The samples still inside the window once `sample` is added, oldest first. */
export function addSample(samples: readonly RateSample[], sample: RateSample): RateSample[] {
  const kept = samples.filter((s) => s.at >= sample.at - RATE_WINDOW_MS && s.at <= sample.at);
  kept.push(sample);
  return kept;
}

/** Bytes per second over the window, or undefined while there is too little to tell. */
export function bytesPerSecond(samples: readonly RateSample[]): number | undefined {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last || last.at - first.at < MIN_SPAN_MS) return undefined;
  return ((last.sent - first.sent) * 1000) / (last.at - first.at);
}

/** Whole seconds until `remaining` bytes are sent at `speed`; undefined without a speed. */
export function secondsLeft(remaining: number, speed: number | undefined): number | undefined {
  if (speed === undefined || speed <= 0) return undefined;
  return Math.ceil(Math.max(0, remaining) / speed);
}
