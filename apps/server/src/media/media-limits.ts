/**
 * Bounds on the work one image may cost. Decoded pixels, not file bytes, decide memory: a
 * 500 KB PNG can declare 100000×100000 pixels.
 */
import { SETTINGS } from "../config/settings.js";

export interface MediaLimits {
  /** Largest input image, width × height as declared in its header. Checked before decoding. */
  maxInputPixels: number;
  /**
   * Largest image the pipeline produces, intermediate or final (width × height). Every
   * intermediate is held as raw RGBA, so memory per image is at most about 2 × 4 × this.
   */
  maxOutputPixels: number;
  /**
   * Largest image the pipeline makes that has more pixels than its input (an upscale, a pad,
   * a rotation's larger canvas), intermediate or final. Images no larger than the input are
   * bound by maxOutputPixels only. Delivery renders public images for anyone: without this a
   * 10×10 image asked for w_6000,h_6000 costs 36 MP of work for free.
   */
  maxUpscalePixels: number;
  /** CPU time one sharp pipeline may take, in seconds; beyond it the request is refused. */
  timeoutSeconds: number;
  /** Largest input read from a stream (delivery), in bytes. */
  maxInputBytes: number;
}

/** The first four are settings (src/config/settings.ts says why their defaults); the last is not. */
export const DEFAULT_MEDIA_LIMITS: Readonly<MediaLimits> = Object.freeze({
  maxInputPixels: SETTINGS.TROVE_MAX_INPUT_PIXELS.default,
  maxOutputPixels: SETTINGS.TROVE_MAX_OUTPUT_PIXELS.default,
  maxUpscalePixels: SETTINGS.TROVE_MAX_UPSCALE_PIXELS.default,
  timeoutSeconds: SETTINGS.TROVE_MEDIA_TIMEOUT_SECONDS.default,
  maxInputBytes: 256 * 1024 * 1024,
});

/** Fills in defaults; a limit that is not a positive integer is a configuration bug, so it throws. */
export function resolveMediaLimits(limits: Partial<MediaLimits> = {}): MediaLimits {
  const resolved = { ...DEFAULT_MEDIA_LIMITS, ...stripUndefined(limits) };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`media limit ${name} must be a positive integer, got ${String(value)}`);
    }
  }
  return resolved;
}

function stripUndefined(limits: Partial<MediaLimits>): Partial<MediaLimits> {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}
