import type { ErrorCode } from "@trove/schema";

/** The codes the media module throws; all of them are in the shared ERROR_CODES list. */
export type MediaErrorCode = Extract<
  ErrorCode,
  "IMAGE_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "INVALID_TRANSFORM" | "FILE_TOO_LARGE"
>;

// A source larger than the byte limit is the only 413; everything else is a 400 because each
// is a property of the request (the file sent or the transform asked for), never of the server.
const STATUS: Record<MediaErrorCode, 400 | 413> = {
  IMAGE_TOO_LARGE: 400,
  UNSUPPORTED_MEDIA_TYPE: 400,
  INVALID_TRANSFORM: 400,
  FILE_TOO_LARGE: 413,
};

/**
 * A refusal caused by the media or the transform a client sent. The message is safe to return
 * to the client as is (it never contains a path or a stack). Routes map it onto their error
 * envelope with `status` and `code`; anything else thrown by this module is a bug (500).
 */
export class MediaError extends Error {
  override readonly name = "MediaError";
  readonly code: MediaErrorCode;
  readonly status: 400 | 413;

  constructor(code: MediaErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = STATUS[code];
  }
}

export function isMediaError(error: unknown): error is MediaError {
  return error instanceof MediaError;
}
