import { openAsBlob } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { invalidArgument } from "../invalid-argument.js";
import { type InputResolver, resolveWebInput } from "../upload/upload-input.js";
import { FileRangeBlob } from "./file-range-blob.js";
import { guessMimeType } from "./guess-mime-type.js";
import { sendDirectUpload } from "./send-direct-upload.js";

/**
 * The inputs of Node's `upload()`: a file path (or file: URL), a Node Readable, and the web
 * inputs (resolveWebInput). A path becomes a file-backed Blob (a direct upload sends it whole)
 * whose slices, the multipart parts, are file ranges (file-range-blob.ts): read from disk only
 * when sent, so memory stays at the chunks in flight, and a file that changes during the upload
 * fails its reads instead of sending mixed content. Its identity for resuming is path, size, mtime and
 * inode.
 */
export const resolveNodeInput: InputResolver = async (input) => {
  const resolved = await resolveInput(input);
  // Direct uploads stream their form body from the input (send-direct-upload.ts).
  return resolved && { ...resolved, sendDirect: sendDirectUpload };
};

const resolveInput: InputResolver = async (input) => {
  if (typeof input === "string" || (input instanceof URL && input.protocol === "file:")) {
    const path = resolve(typeof input === "string" ? input : fileURLToPath(input));
    const name = basename(path);
    const info = await stat(path).catch((error: unknown) => {
      throw invalidArgument(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (!info.isFile()) throw invalidArgument(`${path} is not a file`);
    const version = { size: info.size, mtimeMs: info.mtimeMs };
    const blob = await openAsBlob(path);
    // Parts (slices) read the file in 1 MiB chunks; the whole Blob (a direct upload) stays Node's.
    blob.slice = (start = 0, end = info.size) =>
      new FileRangeBlob(path, 0, info.size, version).slice(start, end);
    return {
      kind: "blob",
      blob,
      size: info.size,
      name,
      type: guessMimeType(name),
      identity: `path:${path}:${info.size}:${info.mtimeMs}:${info.ino}`,
    };
  }
  if (input instanceof Readable) {
    const path = (input as Readable & { path?: unknown }).path;
    const name = typeof path === "string" ? basename(path) : undefined;
    return {
      kind: "stream",
      stream: Readable.toWeb(input) as ReadableStream<Uint8Array>,
      size: undefined,
      // fs.createReadStream(path) remembers its path: a name for free.
      name,
      type: name === undefined ? undefined : guessMimeType(name),
      identity: undefined,
    };
  }
  return resolveWebInput(input);
};
