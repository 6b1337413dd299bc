/**
 * The upload policy's pixel limits (`min_width`, `max_width`, `min_height`, `max_height`) and
 * aspect-ratio limits (`min_aspect_ratio`, `max_aspect_ratio`, width / height) for raster images.
 * Sizes are as displayed, EXIF orientation applied (./process-uploaded-image.ts passes the header
 * read by src/media/read-image-header.ts), so a portrait phone photo stored 4000×3000 with
 * orientation 6 counts as 3000×4000. Judged in the shared ingest step, so every upload path
 * (direct, remote URL, multipart, tus) meets the same rule; anything that is not a raster image is
 * not judged. A refusal is 422 IMAGE_DIMENSIONS_NOT_ALLOWED naming the limit and the actual size.
 */
import { HttpError } from "../errors/http-error.js";
import type { UploadPolicy } from "./upload-policy.js";

const CODE = "IMAGE_DIMENSIONS_NOT_ALLOWED";

function refusal(message: string): HttpError {
  return new HttpError(422, message, { errorCode: CODE });
}

export function hasDimensionLimits(policy: UploadPolicy | undefined): boolean {
  if (!policy) return false;
  return [
    policy.min_width,
    policy.max_width,
    policy.min_height,
    policy.max_height,
    policy.min_aspect_ratio,
    policy.max_aspect_ratio,
  ].some((limit) => limit !== undefined);
}

/**
 * `which` says what was measured ("The image", "The transformed image") in the message.
 */
export function checkImageDimensions(
  policy: UploadPolicy | undefined,
  size: { width: number; height: number },
  which = "The image",
): void {
  if (!policy || !hasDimensionLimits(policy)) return;
  const { width, height } = size;
  const is = `${which} is ${width}×${height} px`;
  if (policy.min_width !== undefined && width < policy.min_width) {
    throw refusal(`${is}; this credential accepts images at least ${policy.min_width} px wide`);
  }
  if (policy.max_width !== undefined && width > policy.max_width) {
    throw refusal(`${is}; this credential accepts images at most ${policy.max_width} px wide`);
  }
  if (policy.min_height !== undefined && height < policy.min_height) {
    throw refusal(`${is}; this credential accepts images at least ${policy.min_height} px high`);
  }
  if (policy.max_height !== undefined && height > policy.max_height) {
    throw refusal(`${is}; this credential accepts images at most ${policy.max_height} px high`);
  }
  const ratio = width / height;
  const shown = `${is} (aspect ratio ${round(ratio)})`;
  if (policy.min_aspect_ratio !== undefined && ratio < policy.min_aspect_ratio) {
    throw refusal(
      `${shown}; this credential accepts an aspect ratio (width / height) of at least ${policy.min_aspect_ratio}`,
    );
  }
  if (policy.max_aspect_ratio !== undefined && ratio > policy.max_aspect_ratio) {
    throw refusal(
      `${shown}; this credential accepts an aspect ratio (width / height) of at most ${policy.max_aspect_ratio}`,
    );
  }
}

/** An image whose header could not be read cannot be shown to fit: refused under any limit. */
export function checkUnmeasuredImage(policy: UploadPolicy | undefined, mimeType: string): void {
  if (hasDimensionLimits(policy)) {
    throw refusal(
      `This ${mimeType} image's pixel size could not be read; this credential limits image dimensions`,
    );
  }
}

function round(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
