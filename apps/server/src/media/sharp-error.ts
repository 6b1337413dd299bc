import { MediaError } from "./media-error.js";
import type { MediaLimits } from "./media-limits.js";

/**
 * Turns an error thrown by sharp while reading a client's image into a MediaError. Only call it
 * around work whose failure is the input's fault (header reads and the decoding stage); errors
 * later in the pipeline run on pixels we produced ourselves, and stay 500s.
 */
export function decodeError(error: unknown, limits: MediaLimits): unknown {
  if (error instanceof MediaError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes("exceeds pixel limit")) return inputPixelLimitError(limits, error);
  const timeout = timeoutError(error, limits);
  if (timeout !== undefined) return timeout;
  return new MediaError("UNSUPPORTED_MEDIA_TYPE", "image could not be decoded: it is corrupt or truncated", {
    cause: error,
  });
}

/** An input whose header declares more than maxInputPixels (a decompression bomb). */
export function inputPixelLimitError(limits: MediaLimits, cause?: unknown): MediaError {
  return new MediaError(
    "IMAGE_TOO_LARGE",
    `image is larger than the ${limits.maxInputPixels}-pixel input limit`,
    {
      cause,
    },
  );
}

/** sharp's timeout() rejects with "timeout: N% complete"; that is a refusal, wherever it happens. */
export function timeoutError(error: unknown, limits: MediaLimits): MediaError | undefined {
  if (!(error instanceof Error) || !error.message.startsWith("timeout:")) return undefined;
  return new MediaError(
    "IMAGE_TOO_LARGE",
    `image processing took longer than the ${limits.timeoutSeconds}-second limit`,
    { cause: error },
  );
}
