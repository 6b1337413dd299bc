/**
 * A raster image's part of registration: its header read once (dimensions, orientation; the
 * decoder's verdict on the type is judged against the policy too), and a store-time transform
 * applied, its output checked against the size caps before it is written under the file's id
 * with its own hash. Every file that is a raster image gets a thumbnail key (rendered by delivery
 * on its first request, src/storage/object-keys.ts). Anything else is described by its sniff alone,
 * and a transform asked of it is refused.
 */
import { hashStream } from "../content-hash/index.js";
import { HttpError } from "../errors/index.js";
import { isMediaError } from "../media/media-error.js";
import { resolveMediaLimits } from "../media/media-limits.js";
import { type ProcessedImage, processImage } from "../media/process-image.js";
import { RASTER_FORMATS } from "../media/raster-format.js";
import { objectKey } from "../storage/driver.js";
import { imageInputOf, putBuffer, thumbnailKeyOf } from "../storage/object-keys.js";
import { checkImageDimensions, checkUnmeasuredImage } from "./image-dimension-policy.js";
import type { RegisterFileInput } from "./register-file-input.js";
import type { DescribedFile, SniffedUpload } from "./sniff-upload.js";
import { storedFileName } from "./stored-name.js";
import type { UploadDeps } from "./upload-deps.js";
import { checkPolicyType, checkStoredSize, effectiveMaxBytes } from "./upload-policy.js";

/** Where the objects this call writes are reported, so a failed registration can remove them. */
export interface WrittenObjects {
  /** Keys written besides the original's. */
  written: string[];
  /** The transform's output was written over the original's key. */
  onOriginalReplaced: () => void;
}

export async function processUploadedImage(
  deps: UploadDeps,
  input: RegisterFileInput,
  fileId: string,
  { described, isRasterImage }: SniffedUpload,
  { written, onOriginalReplaced }: WrittenObjects,
): Promise<DescribedFile> {
  const { storage } = deps;
  const transform = input.transform?.trim() ? input.transform.trim() : undefined;

  if (!isRasterImage) {
    if (transform !== undefined) {
      throw new HttpError(
        400,
        `transform applies to raster images only (${RASTER_FORMATS.join(", ")}); this file is ${described.mimeType}`,
        { errorCode: "UNSUPPORTED_MEDIA_TYPE" },
      );
    }
    return described;
  }

  const limits = resolveMediaLimits(deps.mediaLimits);
  let processed: ProcessedImage;
  try {
    const image = input.bytes
      ? input.bytes()
      : await imageInputOf(storage, input.storageKey, limits.maxInputBytes);
    const render = () =>
      processImage({ input: image, limits, size: input.size, ...(transform ? { transform } : {}) });
    // Only a transform renders pixels; without one, processImage reads the header alone.
    processed = transform && deps.renderGate ? await deps.renderGate.run(render) : await render();
  } catch (error) {
    // Undecodable (truncated, corrupt) but no transformation asked for: keep the bytes as a file.
    if (isMediaError(error) && error.code === "UNSUPPORTED_MEDIA_TYPE" && transform === undefined) {
      checkUnmeasuredImage(input.policy, described.mimeType);
      deps.log?.warn({ err: error, key: input.storageKey }, "image could not be decoded; stored as bytes");
      return described;
    }
    throw error;
  }

  const { info } = processed;
  // The decoder's verdict on an image can be finer than the sniff's; the policy sees it too.
  checkPolicyType(input.policy, info.mimeType);
  // The policy's pixel limits hold for the image as uploaded and, transformed, as stored.
  checkImageDimensions(input.policy, processed.input);
  if (processed.output.kind === "transformed")
    checkImageDimensions(input.policy, info, "The transformed image");
  Object.assign(described, {
    mimeType: info.mimeType,
    format: info.format,
    extension: info.extension,
    width: info.width,
    height: info.height,
    orientation: info.orientation,
    transformString: processed.transform === "" ? null : processed.transform,
  });

  if (processed.output.kind === "transformed") {
    const buffer = processed.output.buffer;
    // Before anything is written: a refusal leaves no object, no row and no token count spent.
    checkStoredSize(
      effectiveMaxBytes(deps.maxUploadBytes ?? Number.POSITIVE_INFINITY, input.policy),
      buffer.length,
    );
    const key = objectKey(input.workspaceId, fileId, storedFileName(input.fileName, info.extension));
    // Nothing is stored under this file's id yet when the original was held: any key is new.
    await putBuffer(storage, key, buffer, info.mimeType, { newKey: input.sourceStored === false });
    if (key === input.storageKey) onOriginalReplaced();
    else written.push(key);
    described.key = key;
    described.size = buffer.length;
    described.hash = (await hashStream([buffer])).hash;
  }

  // Rendered by delivery on its first request, not here (src/storage/object-keys.ts).
  described.thumbnailKey = thumbnailKeyOf(described.key);
  return described;
}
