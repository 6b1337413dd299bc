import type {
  MultipartCompleteResponse,
  MultipartSession,
  MultipartStartBodyInput,
} from "@trove/schema/zod-free";
import type { ClientContext } from "../client/client-context.js";
import { callApi, parseResponse } from "../request/index.js";
import { UPLOAD_PATHS } from "./upload-paths.js";

/** POST /api/v1/multipart/start. Not idempotent: retried only when it cannot have run. */
export async function startMultipart(
  ctx: ClientContext,
  body: MultipartStartBodyInput,
  signal?: AbortSignal,
): Promise<MultipartSession> {
  const response = await callApi(ctx, { method: "POST", path: UPLOAD_PATHS.start, json: body, signal });
  return parseResponse(ctx.schemas.session, response, "multipart start");
}

/** POST /api/v1/multipart/complete. */
export async function completeMultipart(
  ctx: ClientContext,
  sessionId: string,
  signal?: AbortSignal,
): Promise<MultipartCompleteResponse> {
  const response = await callApi(ctx, {
    method: "POST",
    path: UPLOAD_PATHS.complete,
    json: { session_id: sessionId },
    signal,
  });
  return parseResponse(ctx.schemas.complete, response, "multipart complete");
}
