import { callApi } from "../api-call.js";
import type { ClientContext } from "../client-context.js";
import { parseResponse } from "../response-schema.js";
import type { ProgressTracker } from "./progress-tracker.js";
import { UPLOAD_PATHS } from "./upload-paths.js";
import { type UploadResult, uploadResultFrom } from "./upload-result.js";
import type { UploadControl } from "./upload-task.js";

export interface DirectUploadJob {
  file: Blob;
  fileName: string;
  fields: Record<string, string>;
  progress: ProgressTracker;
}

/**
 * POST /api/v1/uploads as multipart/form-data. The file goes last so that a streaming parser has
 * every text field before the bytes arrive. The POST is not idempotent, so a pause never
 * interrupts it (it would store the file twice if it had already arrived).
 */
export async function directUpload(
  ctx: ClientContext,
  job: DirectUploadJob,
  control: UploadControl,
): Promise<UploadResult> {
  const form = new FormData();
  for (const [name, value] of Object.entries(job.fields)) form.append(name, value);
  form.append("file", job.file, job.fileName);
  const size = job.file.size;

  await control.wait();
  const response = await callApi(ctx, {
    method: "POST",
    path: UPLOAD_PATHS.direct,
    form,
    signal: control.signal,
    timeout: ctx.uploadTimeout,
    // The form's total includes its boundaries and fields; scale to the file's own bytes.
    onUploadProgress: job.progress.listened
      ? (loaded, total) => job.progress.sent(0, Math.floor((size * loaded) / Math.max(total, 1)))
      : undefined,
  });
  const result = uploadResultFrom(parseResponse(ctx.schemas.upload, response, "upload"));
  job.progress.confirm(0, size);
  return result;
}
