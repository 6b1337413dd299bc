/**
 * A video original's location and device metadata removed before it becomes a file (issue #33),
 * under the mode images get (./embedded-metadata-rule.ts): MP4 and MOV only, by their bytes
 * (../media/embedded-metadata/strip-isobmff-video.ts finds the boxes; WebM/Matroska is stored as
 * it came). Unlike an image, a video is never read whole: only its top-level box headers and its
 * `moov` are, and each metadata box is neutralised by rewriting its 4-byte type in place.
 *
 * - Bytes held in memory (a small direct upload): the renames are made on a copy, which is what
 *   gets stored.
 * - Bytes already stored: on a driver with local files, the 4 bytes are written into the object
 *   itself (its key is new, nothing names it yet); elsewhere the object is streamed through the
 *   renames back onto its own key. Either way the hash is then computed again from the stored
 *   bytes, so `hash` and `is_duplicate` describe what is stored (the size never changes).
 * - A container that cannot be walked within its bounds: EmbeddedMetadataError, which the caller
 *   makes the 400 UNSUPPORTED_MEDIA_TYPE an image gets; nothing is stored.
 */
import { open } from "node:fs/promises";
import { Transform } from "node:stream";
import type { EmbeddedMetadataMode } from "@trove/schema";
import { hashStream } from "../content-hash/index.js";
import {
  FREE_BOX_TYPE,
  findVideoMetadataBoxes,
  type VideoByteSource,
} from "../media/embedded-metadata/strip-isobmff-video.js";
import type { StorageDriver } from "../storage/driver.js";
import { putBuffer } from "../storage/object-keys.js";
import type { RegisterFileInput } from "./register-file-input.js";
import type { DescribedFile } from "./sniff-upload.js";
import type { UploadDeps } from "./upload-deps.js";

/** Formats (as ../media/sniff-content.ts names them from the bytes) walked as ISO-BMFF video. */
const ISOBMFF_VIDEO_FORMATS = new Set(["mp4", "mov", "m4v"]);

export function isIsobmffVideo(format: string): boolean {
  return ISOBMFF_VIDEO_FORMATS.has(format);
}

export async function stripUploadVideoMetadata(
  deps: UploadDeps,
  input: RegisterFileInput,
  described: DescribedFile,
  mode: Exclude<EmbeddedMetadataMode, "keep">,
): Promise<RegisterFileInput> {
  const held = input.bytes?.();
  const stored = held ? undefined : await storedSource(deps.storage, input.storageKey, input.size);
  let renames: number[];
  try {
    // An EmbeddedMetadataError escapes to ./strip-upload-metadata.ts, which makes it the 400.
    renames = await findVideoMetadataBoxes(held ? memorySource(held) : (stored as StoredSource), mode);
  } finally {
    await stored?.close();
  }
  const withBytes = held ? { ...input, bytes: () => held } : input;
  if (renames.length === 0) return withBytes;

  let bytes: Buffer | undefined;
  if (held) {
    bytes = applyRenames(Buffer.from(held), 0, renames);
    if (input.sourceStored !== false)
      await putBuffer(deps.storage, input.storageKey, bytes, described.mimeType);
  } else {
    await renameStored(deps.storage, input.storageKey, input.size, renames, described.mimeType);
  }
  const hash = (await hashStream(bytes ? [bytes] : await deps.storage.get(input.storageKey))).hash;
  described.hash = hash;
  const stripped = bytes;
  return {
    ...withBytes,
    ...(stripped ? { bytes: () => stripped } : {}),
    hash,
    ...(input.head ? { head: applyRenames(Buffer.from(input.head), 0, renames) } : {}),
  };
}

/** Writes `free` over each renamed type that falls in `chunk` (which starts at `position` of the file). */
function applyRenames(chunk: Buffer, position: number, renames: readonly number[]): Buffer {
  for (const at of renames) {
    for (let index = 0; index < FREE_BOX_TYPE.length; index++) {
      const inChunk = at + index - position;
      if (inChunk >= 0 && inChunk < chunk.length) chunk[inChunk] = FREE_BOX_TYPE[index] as number;
    }
  }
  return chunk;
}

interface StoredSource extends VideoByteSource {
  close(): Promise<void>;
}

function memorySource(bytes: Buffer): VideoByteSource {
  return { length: bytes.length, read: async (offset, length) => bytes.subarray(offset, offset + length) };
}

/** The stored object, read by ranges: from its local file where the driver has one. */
async function storedSource(storage: StorageDriver, key: string, size: number): Promise<StoredSource> {
  if (storage.localPath) {
    const file = await open(storage.localPath(key), "r");
    return {
      length: size,
      async read(offset, length) {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await file.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      },
      close: () => file.close(),
    };
  }
  return {
    length: size,
    async read(offset, length) {
      const chunks: Buffer[] = [];
      for await (const chunk of await storage.get(key, {
        range: { start: offset, end: offset + length - 1 },
      })) {
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).subarray(0, length);
    },
    close: async () => {},
  };
}

async function renameStored(
  storage: StorageDriver,
  key: string,
  size: number,
  renames: readonly number[],
  contentType: string,
): Promise<void> {
  if (storage.localPath) {
    const file = await open(storage.localPath(key), "r+");
    try {
      for (const at of renames) await file.write(FREE_BOX_TYPE, 0, FREE_BOX_TYPE.length, at);
    } finally {
      await file.close();
    }
    return;
  }
  let position = 0;
  const patch = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const copy = applyRenames(Buffer.from(chunk), position, renames);
      position += chunk.length;
      done(null, copy);
    },
  });
  const source = await storage.get(key);
  await storage.put(key, source.pipe(patch), { expectedSize: size, contentType });
}
