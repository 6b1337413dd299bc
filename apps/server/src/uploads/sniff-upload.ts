/**
 * What the stored bytes are, from their first bytes (the bytes decide the type, never the client),
 * judged against the policy's allowed types: the description every file starts from.
 */
import { SNIFF_HEAD_BYTES, sniffContent } from "../media/sniff-content.js";
import type { StorageDriver } from "../storage/driver.js";
import { readObjectHead } from "../storage/object-keys.js";
import type { NewFileRow } from "./insert-file-row.js";
import type { RegisterFileInput } from "./register-file-input.js";
import { checkPolicyType } from "./upload-policy.js";

/**
 * How the stored file is described, whatever the pipeline did (`key`: its storage key; `hash`
 * as RegisterFileInput's until a transform replaces it).
 */
export type DescribedFile = { key: string; hash: RegisterFileInput["hash"] } & Pick<
  NewFileRow,
  | "size"
  | "mimeType"
  | "format"
  | "extension"
  | "width"
  | "height"
  | "orientation"
  | "thumbnailKey"
  | "transformString"
  | "duration"
  | "videoCodec"
  | "audioCodec"
>;

export interface SniffedUpload {
  described: DescribedFile;
  /** A raster image: ./process-uploaded-image.ts reads its header and may transform it. */
  isRasterImage: boolean;
}

export async function sniffUpload(storage: StorageDriver, input: RegisterFileInput): Promise<SniffedUpload> {
  const head =
    input.head ??
    (input.size === 0 ? Buffer.alloc(0) : await readObjectHead(storage, input.storageKey, SNIFF_HEAD_BYTES));
  const sniffed = await sniffContent(head, input.fileName);
  checkPolicyType(input.policy, sniffed.mimeType);
  return {
    isRasterImage: sniffed.isRasterImage,
    described: {
      key: input.storageKey,
      size: input.size,
      hash: input.hash,
      mimeType: sniffed.mimeType,
      format: sniffed.format,
      extension: sniffed.extension,
      width: null,
      height: null,
      orientation: null,
      thumbnailKey: null,
      transformString: null,
    },
  };
}
