import { MAX_TRANSFORM_LENGTH } from "../transform/limits.js";
import { readInteger } from "../transform/read-integer.js";
import { TransformParseError } from "../transform/transform-parse-error.js";
import { accepts } from "./accepts.js";
import { MAX_STREAMING_HEIGHT, MAX_STREAMING_RENDITIONS, MIN_STREAMING_HEIGHT } from "./video-transform.js";

const PREFIX = "st_";

/**
 * `st_240_360_720` → [240, 360, 720]: the rendition heights of an HLS ladder
 * (`{assets}/{ws}/st_240_360/{path}/ar-master.m3u8`), each 144..2160, ascending, unique, at most
 * MAX_STREAMING_RENDITIONS. Throws TransformParseError naming the step.
 */
export function parseStreamingLadder(step: string): number[] {
  if (typeof step !== "string") throw new TransformParseError("streaming ladder must be a string");
  if (step.length > MAX_TRANSFORM_LENGTH) {
    throw new TransformParseError(`streaming ladder is longer than ${MAX_TRANSFORM_LENGTH} characters`);
  }
  if (!step.startsWith(PREFIX)) {
    throw new TransformParseError("a streaming ladder is st_{height}_{height}...", step);
  }
  const parts = step.slice(PREFIX.length).split("_");
  if (parts.length > MAX_STREAMING_RENDITIONS) {
    throw new TransformParseError(`a streaming ladder has at most ${MAX_STREAMING_RENDITIONS} heights`, step);
  }
  const heights: number[] = [];
  for (const part of parts) {
    const read = readInteger(part, MIN_STREAMING_HEIGHT, MAX_STREAMING_HEIGHT, {
      kind: "streaming heights must be integers, st_{height}_{height}...",
      range: `streaming heights must be ${MIN_STREAMING_HEIGHT}..${MAX_STREAMING_HEIGHT}`,
    });
    if (!read.ok) throw new TransformParseError(read.reason, step);
    const previous = heights.at(-1);
    if (previous !== undefined && read.value <= previous) {
      throw new TransformParseError("streaming heights must be ascending and unique", step);
    }
    heights.push(read.value);
  }
  return heights;
}

/** Whether a step is a valid ladder (a valid ladder has one spelling, so no canonical form). */
export function isStreamingLadder(step: string): boolean {
  return step.startsWith(PREFIX) && accepts(parseStreamingLadder, step);
}

/**
 * The step the hosted service's DASH example uses in place of a ladder
 * (`{ws}/processing/{path}/dash/manifest.mpd`): Trove reads it as DEFAULT_STREAMING_LADDER.
 */
export const DEFAULT_STREAMING_STEP = "processing";
export const DEFAULT_STREAMING_LADDER: readonly number[] = [240, 360, 480, 720, 1080];

/**
 * The heights a streaming step names: `processing` the default ladder, `st_…` its own (throws
 * TransformParseError when invalid); null for any other step.
 */
export function streamingStepHeights(step: string): number[] | null {
  if (step === DEFAULT_STREAMING_STEP) return [...DEFAULT_STREAMING_LADDER];
  return step.startsWith(PREFIX) ? parseStreamingLadder(step) : null;
}
