/**
 * An image's embedded personal metadata removed before it becomes a file (issue #34 part 1):
 * the mode comes from ./embedded-metadata-rule.ts, the work from src/media/embedded-metadata/,
 * which never re-encodes the image.
 *
 * - `keep`, or a file that is not a JPEG, PNG, WebP, TIFF, HEIC/HEIF or AVIF: nothing is read.
 * - Bytes held in memory (a small direct upload, nothing written yet): stripped there, so only
 *   the stripped bytes are ever stored.
 * - Bytes already stored (large direct, remote, multipart): read back (at most the media input
 *   limit), stripped, and written over the same key, which nothing names yet; a failure later
 *   removes that key as it would have removed the original (a multipart object stays for a
 *   retry, stripped, which is what a retry would store anyway).
 * - When the bytes change, the file's size, hash and sniffed head are those of the new bytes, so
 *   `size`, `hash` and `is_duplicate` describe what is stored; when nothing had to change, the
 *   stripper says so without copying and nothing is written.
 * - A file whose container cannot be parsed (truncated, hostile) is refused with 400
 *   UNSUPPORTED_MEDIA_TYPE rather than stored with a location that could not be removed.
 * - MP4 and MOV videos under the same mode: ./strip-upload-video-metadata.ts (never read whole).
 */
import { hashStream } from "../content-hash/index.js";
import { HttpError } from "../errors/index.js";
import {
  carriesEmbeddedMetadata,
  isEmbeddedMetadataError,
  stripEmbeddedMetadata,
} from "../media/embedded-metadata/index.js";
import { resolveMediaLimits } from "../media/media-limits.js";
import { readMediaInput } from "../media/read-media-input.js";
import { SNIFF_HEAD_BYTES } from "../media/sniff-content.js";
import { putBuffer } from "../storage/object-keys.js";
import { embeddedMetadataMode } from "./embedded-metadata-rule.js";
import type { RegisterFileInput } from "./register-file-input.js";
import type { SniffedUpload } from "./sniff-upload.js";
import { isIsobmffVideo, stripUploadVideoMetadata } from "./strip-upload-video-metadata.js";
import type { UploadDeps } from "./upload-deps.js";

export async function stripUploadMetadata(
  deps: UploadDeps,
  input: RegisterFileInput,
  { described, isRasterImage }: SniffedUpload,
): Promise<RegisterFileInput> {
  const isVideo = !isRasterImage && isIsobmffVideo(described.format);
  if (!isVideo && (!isRasterImage || !carriesEmbeddedMetadata(described.format))) return input;
  const mode = embeddedMetadataMode({
    credential: input.credential ?? "private",
    workspace: input.workspaceEmbeddedMetadata,
    policy: input.policy?.embedded_metadata,
    requested: input.embeddedMetadata,
  });
  if (mode === "keep") return input;
  if (isVideo) {
    return stripUploadVideoMetadata(deps, input, described, mode).catch((error: unknown) => {
      throw notStripped("video", error);
    });
  }

  const bytes = input.bytes
    ? input.bytes()
    : await readStored(deps, input.storageKey, resolveMediaLimits(deps.mediaLimits).maxInputBytes);
  // `bytes` is called at most once: what follows reads this buffer.
  const held = { ...input, bytes: () => bytes };
  let stripped: Buffer | null;
  try {
    stripped = stripEmbeddedMetadata(bytes, described.format, mode);
  } catch (error) {
    throw notStripped("image", error);
  }
  if (!stripped) return held;

  const hash = (await hashStream([stripped])).hash;
  if (input.sourceStored !== false) {
    await putBuffer(deps.storage, input.storageKey, stripped, described.mimeType);
  }
  described.size = stripped.length;
  described.hash = hash;
  return {
    ...held,
    bytes: () => stripped,
    size: stripped.length,
    hash,
    head: stripped.subarray(0, SNIFF_HEAD_BYTES),
  };
}

/** A container that could not be parsed within its bounds: the upload's 400; anything else as it is. */
function notStripped(kind: "image" | "video", error: unknown): unknown {
  if (!isEmbeddedMetadataError(error)) return error;
  return new HttpError(
    400,
    `${kind} metadata could not be removed (${error.message}); the file was not stored`,
    {
      errorCode: "UNSUPPORTED_MEDIA_TYPE",
    },
  );
}

async function readStored(deps: UploadDeps, key: string, maxBytes: number): Promise<Buffer> {
  return (await readMediaInput(await deps.storage.get(key), maxBytes)) as Buffer;
}
