/**
 * The two ways a video transform fails. `VideoInputError`: the input is not a video Trove
 * transforms, or is over a limit (a client's 400). `VideoRenderError`: the transcode itself
 * failed (the job fails). Both messages are shown to clients, so they never carry ffmpeg's raw
 * output or a local path; the stderr tail goes to the debug log instead.
 */
export type VideoInputErrorCode = "UNSUPPORTED_VIDEO" | "VIDEO_TOO_LARGE" | "VIDEO_TOO_LONG";
export type VideoRenderErrorCode = "VIDEO_TIMEOUT" | "VIDEO_OUTPUT_TOO_LARGE" | "VIDEO_FAILED";

export class VideoInputError extends Error {
  override readonly name = "VideoInputError";
  constructor(
    readonly code: VideoInputErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export class VideoRenderError extends Error {
  override readonly name = "VideoRenderError";
  constructor(
    readonly code: VideoRenderErrorCode,
    message: string,
  ) {
    super(message);
  }
}
