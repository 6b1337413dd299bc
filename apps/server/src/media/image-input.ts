import { open } from "node:fs/promises";
import { SNIFF_HEAD_BYTES } from "./sniff-content.js";

/**
 * A file on this machine whose first bytes are already in memory: sniffed and, where its header
 * lies in them, parsed from `head`; decoded by libvips from `path`, so the rest of the file is
 * never read into the JavaScript heap (src/delivery/read-stored-original.ts makes these).
 */
export interface ImageFile {
  readonly path: string;
  /** The file's first bytes (a prefix: parsers read it as they would a truncated file). */
  readonly head: Buffer;
}

/**
 * A whole image: a file path (read by libvips directly, never buffered by us), its bytes, or a
 * file with its head read.
 */
export type ImageInput = string | Buffer | ImageFile;

export function isImageFile(input: unknown): input is ImageFile {
  return (
    typeof input === "object" &&
    input !== null &&
    !Buffer.isBuffer(input) &&
    typeof (input as ImageFile).path === "string" &&
    Buffer.isBuffer((input as ImageFile).head)
  );
}

/** What libvips is handed: the image's path, or its bytes. */
export function decoderInput(input: ImageInput): string | Buffer {
  return isImageFile(input) ? input.path : input;
}

/** The image's bytes from its start that are in memory: all of them, or a file's head. */
export function leadingBytes(input: Buffer | ImageFile): Buffer {
  return isImageFile(input) ? input.head : input;
}

/** The first SNIFF_HEAD_BYTES of an input, for sniffing before anything is handed to a decoder. */
export async function readHead(input: ImageInput): Promise<Uint8Array> {
  if (typeof input !== "string") return leadingBytes(input).subarray(0, SNIFF_HEAD_BYTES);
  const file = await open(input, "r");
  try {
    const head = Buffer.alloc(SNIFF_HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, SNIFF_HEAD_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** Size in bytes of an input. */
export async function inputSize(input: ImageInput): Promise<number> {
  if (Buffer.isBuffer(input)) return input.length;
  const file = await open(decoderInput(input), "r");
  try {
    return (await file.stat()).size;
  } finally {
    await file.close();
  }
}
