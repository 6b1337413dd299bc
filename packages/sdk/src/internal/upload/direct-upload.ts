import { UPLOAD_PATHS } from "@trove/schema/zod-free";
import type { ClientContext } from "../client/client-context.js";
import { callApi, parseResponse, type StreamedBody } from "../request/index.js";
import type { ProgressTracker } from "./progress-tracker.js";
import { type UploadResult, uploadResultFrom } from "./upload-result.js";
import type { UploadControl } from "./upload-task.js";

export interface DirectUploadJob {
  file: Blob;
  fileName: string;
  fields: Record<string, string>;
  progress: ProgressTracker;
}

/**
 * The body of a direct upload streamed from its file (Node's, node/direct-form-body.ts): the same
 * fields in the same order as the FormData below, never held in memory whole.
 */
export type DirectFormBody = (fields: Record<string, string>, file: Blob, fileName: string) => StreamedBody;

/**
 * POST /api/v1/uploads as multipart/form-data. The file goes last so that a streaming parser has
 * every text field before the bytes arrive. The POST is not idempotent, so a pause never
 * interrupts it (it would store the file twice if it had already arrived). Progress is reported
 * once, when it is answered: the POST carries the API key, so it goes through fetch, which can
 * refuse a redirect, never XMLHttpRequest, which follows every redirect with the key on.
 */
export async function directUpload(
  ctx: ClientContext,
  job: DirectUploadJob,
  control: UploadControl,
): Promise<UploadResult> {
  await control.wait();
  const response = await callApi(ctx, {
    method: "POST",
    path: UPLOAD_PATHS.direct,
    ...(ctx.directFormBody
      ? { stream: ctx.directFormBody(job.fields, job.file, job.fileName) }
      : { form: formOf(job) }),
    signal: control.signal,
    timeout: ctx.uploadTimeout,
  });
  const result = uploadResultFrom(parseResponse(ctx.schemas.upload, response, "upload"));
  job.progress.confirm(0, job.file.size);
  return result;
}

/** Where request bodies cannot be streamed (browsers over HTTP/1.1), fetch encodes a FormData. */
function formOf(job: DirectUploadJob): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(job.fields)) form.append(name, value);
  form.append("file", job.file, job.fileName);
  return form;
}
