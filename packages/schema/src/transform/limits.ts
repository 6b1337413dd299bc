/**
 * Bounds of the grammar. The input limits are a DoS guard: a request is rejected before any
 * splitting or allocation proportional to its size.
 *
 * MAX_TRANSFORM_LENGTH is 8192: a step may carry up to 8 text layers of 200 characters, and
 * percent-encoding a character takes up to 12 (4 UTF-8 bytes × `%XX`), so one layer's text alone
 * can take 2,400. 8192 still fits with a file path in Node's 16 KB request-header limit. A
 * transformation whose canonical string would be longer is refused by the builder with the
 * parser's message, so whatever the builder writes, the parser accepts.
 */
export const MAX_TRANSFORM_LENGTH = 8192;
export const MAX_TRANSFORM_STEPS = 10;

/** Largest width, height and corner radius, in pixels. */
export const MAX_DIMENSION = 8192;

/**
 * Rotations are written in -36000..36000 degrees (any turn, as the hosted service reads `r_450`
 * as `r_90`, up to a hundred turns either way: a bound keeps the value a small integer) and
 * canonicalised into 0..359.
 */
export const MAX_ROTATION = 36000;

/** Layer blocks per step. */
export const MAX_LAYERS = 8;

/** Characters (code points) of a text layer's decoded text. */
export const MAX_TEXT_LENGTH = 200;

/** Font size of a text layer, in pixels before dpr. */
export const MAX_FONT_SIZE = 512;

/** Largest coordinate of a `ps_{x},{y}` source point: the largest side JPEG can hold. */
export const MAX_SOURCE_COORDINATE = 65535;

/** Longest decoded path of an image layer. */
export const MAX_LAYER_PATH_LENGTH = 1024;
