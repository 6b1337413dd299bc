import { open } from "node:fs/promises";
import { SNIFF_HEAD_BYTES } from "./sniff-content.js";

/** A whole image: a file path (read by libvips directly, never buffered by us) or its bytes. */
export type ImageInput = string | Buffer;

/** The first SNIFF_HEAD_BYTES of an input, for sniffing before anything is handed to a decoder. */
export async function readHead(input: ImageInput): Promise<Uint8Array> {
  if (typeof input !== "string") return input.subarray(0, SNIFF_HEAD_BYTES);
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
  if (typeof input !== "string") return input.length;
  const file = await open(input, "r");
  try {
    return (await file.stat()).size;
  } finally {
    await file.close();
  }
}
