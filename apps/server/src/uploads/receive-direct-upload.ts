/**
 * Reads a direct upload's `multipart/form-data` body: text fields are collected (before or after
 * the file, in any order), the `file` part goes through the ingest hasher and is held in memory
 * up to KEEP_IN_MEMORY_BYTES (or HOLD_FOR_TRANSFORM_BYTES with a transform); a longer one is
 * streamed straight into storage. Requires `@fastify/multipart` registered on the route's scope.
 */

import type { Multipart, MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { HttpError } from "../errors/http-error.js";
import { objectKey, type StorageDriver } from "../storage/driver.js";
import { type IngestResult, IngestStream } from "./ingest-stream.js";
import { readUpTo } from "./read-up-to.js";
import { fileTooLarge, toUploadError } from "./upload-errors.js";
import { uuidV7 } from "./uuid-v7.js";

/**
 * An upload's bytes as the ingest saw them (size, hash, head; `bytes`: the whole content for a body
 * of at most KEEP_IN_MEMORY_BYTES, and always when not `stored`), and where they are.
 */
export interface ReceivedFile extends IngestResult {
  fileId: string;
  key: string;
  /**
   * False when the bytes were kept in memory only (`bytes`) and nothing is at `key` yet: a small
   * body is written in one call when it is registered, and an upload with a store-time
   * transform stores only its output.
   */
  stored: boolean;
  /** What the client's part header said; informative only (the bytes decide the type). */
  clientFileName: string | undefined;
  clientMimeType: string | undefined;
}

export interface ReceivedDirectUpload {
  /** Text fields; a repeated field keeps its last value. */
  fields: Record<string, string>;
  file: ReceivedFile | null;
}

export interface ReceiveOptions {
  storage: StorageDriver;
  workspaceId: string;
  maxBytes: number;
  /** Called with the fields seen so far just before the file is stored; throw to refuse early. */
  beforeFile?: (fields: Record<string, string>) => void;
  /**
   * When a `transform` field came before the file, a file of at most this many bytes is kept in
   * memory instead of being stored (`stored: false`); a longer one is stored as usual.
   */
  holdForTransformUpTo?: number;
}

/** The form field that carries the file. */
export const FILE_FIELD = "file";
const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 1024 * 1024;
/**
 * Bodies up to this size are held in memory and not stored while they arrive (`stored: false`):
 * registering the file reads an image's header from memory and writes the bytes in one call,
 * which costs less than a write stream with a write per chunk. Small on purpose: the copy into
 * one Buffer touches fresh pages (0.6 ms for 128 KiB, 26 ms for 4 MiB on the 2-core bench
 * machine, on the main thread); a larger body is streamed into storage as it arrives.
 */
export const KEEP_IN_MEMORY_BYTES = 256 * 1024;
/**
 * A file with a store-time transform is held in memory up to this size instead of being stored:
 * only the transformed output is stored, and the original's write, read-back and deletion are
 * saved. Above it the original is stored first and libvips streams it from there, as before.
 */
export const HOLD_FOR_TRANSFORM_BYTES = 32 * 1024 * 1024;

/** The request's Content-Length: an upper bound of the file part's size, to size its kept copy. */
function contentLength(request: FastifyRequest): number | undefined {
  const value = Number(request.headers["content-length"]);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function malformed(error: unknown): HttpError {
  const code = (error as { code?: unknown })?.code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return error as HttpError; // mapped by the caller
  if (code === "FST_FIELDS_LIMIT" || code === "FST_PARTS_LIMIT") {
    return new HttpError(400, `Too many form fields (at most ${MAX_FIELDS})`, { cause: error });
  }
  if (code === "FST_FILES_LIMIT") {
    return new HttpError(400, `Send exactly one file, in the "${FILE_FIELD}" field`, { cause: error });
  }
  if (code === "FST_PROTO_VIOLATION") return new HttpError(400, "Invalid form field name", { cause: error });
  if (code === "FST_INVALID_JSON_FIELD_ERROR") {
    return new HttpError(400, "A form field declared as JSON is not valid JSON", { cause: error });
  }
  if (code === "FST_MP_PREMATURE_CLOSE") {
    return new HttpError(400, "The request ended before the form data was complete", { cause: error });
  }
  return new HttpError(400, "Malformed multipart/form-data body", { cause: error });
}

export async function receiveDirectUpload(
  request: FastifyRequest,
  options: ReceiveOptions,
): Promise<ReceivedDirectUpload> {
  const fields: Record<string, string> = {};
  let file: ReceivedFile | null = null;
  const iterator = request.parts({
    limits: {
      fileSize: options.maxBytes,
      files: 1,
      fields: MAX_FIELDS,
      fieldSize: MAX_FIELD_BYTES,
      parts: MAX_FIELDS + 1,
    },
  });

  try {
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await iterator.next();
      } catch (error) {
        if ((error as { code?: unknown })?.code === "FST_REQ_FILE_TOO_LARGE") {
          throw fileTooLarge(options.maxBytes, error);
        }
        throw malformed(error);
      }
      if (next.done) break;
      const part = next.value;

      if (part.type === "field") {
        if (part.valueTruncated) {
          throw new HttpError(400, `${part.fieldname} is too long (at most ${MAX_FIELD_BYTES} bytes)`);
        }
        fields[part.fieldname] = typeof part.value === "string" ? part.value : JSON.stringify(part.value);
        continue;
      }

      if (part.fieldname !== FILE_FIELD) {
        part.file.resume();
        throw new HttpError(
          400,
          `Unexpected file field "${part.fieldname}": send the file as "${FILE_FIELD}"`,
        );
      }
      options.beforeFile?.(fields);
      file = await storeFilePart(part, options, fields, contentLength(request));
    }
  } catch (error) {
    if (file?.stored) await options.storage.delete(file.key).catch(() => {});
    throw toUploadError(error);
  }
  return { fields, file };
}

async function storeFilePart(
  part: MultipartFile,
  options: ReceiveOptions,
  fields: Record<string, string>,
  bodySize: number | undefined,
): Promise<ReceivedFile> {
  const fileId = uuidV7();
  // The name in the key is cosmetic (keys are opaque); file_name may only arrive later.
  const key = objectKey(options.workspaceId, fileId, fields.file_name || part.filename || "file");
  const transform = Boolean(fields.transform?.trim());
  // A small body is always held: registering it writes it in one call, not as a stream.
  const holdUpTo = Math.max(
    KEEP_IN_MEMORY_BYTES,
    (transform ? options.holdForTransformUpTo : undefined) ?? 0,
  );
  // A held file's bytes are the ingest's own kept copy, filled as the body arrives, and hashed
  // only when registering it asks: the same work as hashing as it arrives when the bytes are
  // stored as they came, and none when they are not (a store-time transform's output, or an
  // image whose metadata stripping changed it, is hashed instead).
  const ingest = new IngestStream({
    keepUpTo: holdUpTo,
    deferHash: true,
    ...(bodySize === undefined ? {} : { expectedSize: bodySize }),
  });
  // Busboy truncates a part at `fileSize` and emits "limit": stop storing at once.
  part.file.once("limit", () => ingest.destroy(fileTooLarge(options.maxBytes)));
  // A broken body (busboy's error) is the client's fault, a 400; a failing storage write is not.
  // The part may already be errored when we get it (busboy saw the whole broken body first).
  if (part.file.errored) throw malformed(part.file.errored);
  let partError: unknown;
  part.file.once("error", (error: unknown) => {
    // When storage fails first, `ingest` is destroyed before the part: not the client's fault.
    if (!ingest.destroyed) partError = error;
    ingest.destroy(error as Error);
  });
  // What `pipeline` would do, without the AbortController (and the DOMException its abort makes
  // when the pipe finishes) that it costs on every upload: an error on either side ends both.
  ingest.once("close", () => {
    if (!part.file.readableEnded) part.file.destroy();
  });
  part.file.once("close", () => {
    if (part.file.readableEnded || ingest.destroyed) return;
    partError = new Error("the file part closed before its end");
    ingest.destroy(partError as Error);
  });
  const body = part.file.pipe(ingest);
  let held = false;
  try {
    const read = await readUpTo(body, holdUpTo);
    held = read.complete;
    // maxBytes + 1: busboy cuts the part at exactly maxBytes; its "limit" event decides.
    if (!read.complete)
      await options.storage.put(key, read.stream, { maxBytes: options.maxBytes + 1, newKey: true });
  } catch (error) {
    if (partError !== undefined && !(error instanceof HttpError)) throw malformed(partError);
    throw error;
  }
  if (part.file.truncated) {
    if (!held) await options.storage.delete(key).catch(() => {});
    throw fileTooLarge(options.maxBytes);
  }
  return {
    ...ingest.result(),
    fileId,
    key,
    stored: !held,
    clientFileName: part.filename || undefined,
    clientMimeType: part.mimetype || undefined,
  };
}
