import { UPLOAD_PATHS } from "@trove/schema/zod-free";
import type { ClientContext } from "../client/client-context.js";
import { callApi, parseResponse } from "../request/index.js";
import { storeFields } from "./store-fields.js";
import type { RemoteUploadOptions } from "./upload-options.js";
import { type UploadResult, uploadResultFrom } from "./upload-result.js";

/** POST /api/v1/uploads/remote: the service fetches `url` itself. */
export async function remoteUpload(
  ctx: ClientContext,
  url: string,
  options: RemoteUploadOptions = {},
): Promise<UploadResult> {
  const response = await callApi(ctx, {
    method: "POST",
    path: UPLOAD_PATHS.remote,
    json: { remote_url: url, ...storeFields(options, options.fileName) },
    signal: options.signal,
  });
  return uploadResultFrom(parseResponse(ctx.schemas.upload, response, "remote upload"));
}
