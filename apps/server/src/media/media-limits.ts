/**
 * Bounds on the work one image may cost. Decoded pixels, not file bytes, decide memory: a
 * 500 KB PNG can declare 100000×100000 pixels.
 */
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

export const DEFAULT_MEDIA_LIMITS: Readonly<MediaLimits> = Object.freeze({
  maxInputPixels: 100_000_000,
  maxOutputPixels: 40_000_000,
  // 4096 × 4096: room for a retina rendition of anything a 5K screen shows (5120 × 2880 is
  // 14.7 MP; a 1200×800 photo at w_2400 is 3.8 MP), while 6000 × 6000 (36 MP) is refused.
  maxUpscalePixels: 16_777_216,
  timeoutSeconds: 30,
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
