import type { ClientContext } from "../client/client-context.js";
import { perUpload } from "../client/upload-token-key.js";
import { TroveError, ValidationError } from "../errors.js";
import { invalidArgument } from "../invalid-argument.js";
import { directUpload } from "./direct-upload.js";
import { multipartUpload } from "./multipart-upload.js";
import { progressTracker } from "./progress-tracker.js";
import { resumeOf } from "./resume-of.js";
import { multipartStartBody, storeFields } from "./store-fields.js";
import type { StreamInputs } from "./stream-inputs.js";
import type { ResolvedInput } from "./upload-input.js";
import type { UploadOptions } from "./upload-options.js";
import type { UploadResult } from "./upload-result.js";
import { type UploadControl, type UploadTask, uploadTask } from "./upload-task.js";

/** `client.upload()`: returns at once; the work runs inside the task, with one token for all of it. */
export function startUpload(ctx: ClientContext, input: unknown, options: UploadOptions = {}): UploadTask {
  const size = knownSize(input) ?? options.size;
  const threshold = options.multipartThreshold ?? ctx.multipartThreshold;
  return uploadTask(
    (control) => runUpload(perUpload(ctx), input, options, control),
    options.signal,
    size === undefined || size > threshold || inOnePart(ctx, options, knownSize(input)),
  );
}

/**
 * Whether a small input goes as a one-part multipart session (ClientOptions.smallUploads): in a
 * browser, when the caller listens to progress, for an input whose size is known without reading.
 */
function inOnePart(ctx: ClientContext, options: UploadOptions, size: number | undefined): boolean {
  return (
    ctx.smallUploads === "session" &&
    options.onProgress !== undefined &&
    size !== undefined &&
    typeof XMLHttpRequest !== "undefined"
  );
}

/** The size of an input that tells it without reading (streams and file paths do not). */
function knownSize(input: unknown): number | undefined {
  if (input instanceof Blob) return input.size;
  if (input instanceof ArrayBuffer || ArrayBuffer.isView(input)) return input.byteLength;
  return undefined;
}

/**
 * Inputs of at most `multipartThreshold` bytes go up in one direct upload; larger ones in parts.
 * A stream of unknown size is read up to the threshold: if it ends there it is a direct upload,
 * otherwise the caller must pass `size`.
 */
async function runUpload(
  ctx: ClientContext,
  input: unknown,
  options: UploadOptions,
  control: UploadControl,
): Promise<UploadResult> {
  const resolved = await ctx.resolveInput(input);
  // A ReadableStream only where the client has the code that reads it (stream-inputs.ts).
  if (!resolved || (resolved.kind === "stream" && !ctx.streams)) {
    throw invalidArgument(
      "upload() takes a File, Blob, ArrayBuffer, typed array, or ReadableStream with streams: streamInputs (in Node: also a file path or a Node Readable)",
    );
  }
  const fileName = options.fileName ?? resolved.name;
  if (!fileName) throw invalidArgument("options.fileName is required for an input without a name");
  const threshold = options.multipartThreshold ?? ctx.multipartThreshold;
  const concurrency = options.concurrency ?? ctx.concurrency;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw invalidArgument("concurrency must be an integer ≥ 1");
  }
  // No guess from the name here: a browser File already has the type its browser took from the
  // extension, the server sniffs the content anyway, and in Node file paths are typed by their extension.
  const contentType = options.contentType ?? resolved.type ?? "application/octet-stream";
  const size = resolved.size ?? options.size;

  // Refused before anything is sent: the server refuses empty files on every path (EMPTY_FILE).
  if (size === 0) throw emptyFile();
  const large = size !== undefined && size > threshold;
  if (large || (size !== undefined && resolved.kind !== "stream" && inOnePart(ctx, options, size))) {
    const store = options.sessionStore === null ? undefined : (options.sessionStore ?? ctx.sessionStore);
    const resume = resumeOf(ctx, store);
    // A plain store passed to one upload of createUploadClient: it would silently never resume.
    if (store && !resume) throw invalidArgument("sessionStore needs resumable(store)");
    const identity = resolved.identity ?? options.resumeKey;
    const startBody = multipartStartBody(options, fileName, size, contentType);
    try {
      return await multipartUpload(
        ctx,
        {
          input: resolved,
          size,
          startBody,
          concurrency: large ? concurrency : 1,
          store,
          resume,
          key: resume && identity !== undefined ? resume.key([ctx.baseUrl, identity, startBody]) : undefined,
          progress: progressTracker(size, options.onProgress),
        },
        control,
      );
    } catch (error) {
      // A small file whose credential refuses multipart (403 MULTIPART_NOT_ALLOWED, at start,
      // before any byte) goes directly: that is the upload its policy allows.
      if (large || !(error instanceof TroveError && error.code === "MULTIPART_NOT_ALLOWED")) throw error;
    }
  }
  control.unpausable();
  const file = await smallFile(ctx, resolved, threshold, contentType, options.size, control.signal);
  if (file.size === 0) throw emptyFile();
  const progress = progressTracker(file.size, options.onProgress);
  const fields = storeFields(options, fileName);
  return directUpload(ctx, { file, fileName, fields, progress, send: resolved.sendDirect }, control);
}

function emptyFile(): ValidationError {
  return new ValidationError("File is empty", { code: "EMPTY_FILE" });
}

/** The body of a direct upload, as a typed Blob (FormData needs one; a Blob part is not copied). */
async function smallFile(
  ctx: ClientContext,
  resolved: ResolvedInput,
  threshold: number,
  contentType: string,
  declaredSize: number | undefined,
  signal: AbortSignal,
): Promise<Blob> {
  return new Blob(
    resolved.kind === "stream"
      ? await (ctx.streams as StreamInputs).readSmall(resolved.stream, threshold, declaredSize, signal)
      : [resolved.kind === "blob" ? resolved.blob : (resolved.bytes as Uint8Array<ArrayBuffer>)],
    { type: contentType },
  );
}
