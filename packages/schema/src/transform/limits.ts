/**
 * Bounds of the grammar. The input limits are a DoS guard: a request is rejected before any
 * splitting or allocation proportional to its size.
 *
 * MAX_TRANSFORM_LENGTH is 2048 rather than 1024 so that every canonical string of at most
 * MAX_TRANSFORM_STEPS steps fits in it (a canonical step is at most ~120 characters, see
 * limits.test.ts): whatever the builder writes, the parser accepts.
 */
export const MAX_TRANSFORM_LENGTH = 2048;
export const MAX_TRANSFORM_STEPS = 10;

/** Largest width, height and corner radius, in pixels. */
export const MAX_DIMENSION = 8192;

/** Rotations are written in -360..360 degrees and canonicalised into 0..359. */
export const MAX_ROTATION = 360;
