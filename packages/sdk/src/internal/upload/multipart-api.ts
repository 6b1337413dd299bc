import type {
  MultipartCompleteResponse,
  MultipartSession,
  MultipartStartBodyInput,
} from "@trove/schema/zod-free";
import { UPLOAD_PATHS } from "@trove/schema/zod-free";
import type { ClientContext } from "../client/client-context.js";
import { callApi, parseResponse } from "../request/index.js";

/** POST /api/v1/multipart/start. Not idempotent: retried only when it cannot have run. */
export async function startMultipart(
  ctx: ClientContext,
  body: MultipartStartBodyInput,
  signal?: AbortSignal,
): Promise<MultipartSession> {
  const response = await callApi(ctx, { method: "POST", path: UPLOAD_PATHS.start, json: body, signal });
  return parseResponse(ctx.schemas.session, response, "multipart start");
}

/**
 * DELETE /api/v1/multipart/{sessionId}, once and best effort, for an upload aborted for good: the
 * server removes the staged parts and gives an upload token back the file it held. One plain
 * request, no retries (an abort must not leave timers behind) and no redirects (it carries the
 * key); any failure is ignored: the session expires on its own anyway.
 */
export async function abandonMultipart(ctx: ClientContext, sessionId: string): Promise<void> {
  try {
    const response = await ctx.fetch(
      `${ctx.baseUrl}${UPLOAD_PATHS.session.replace(":sessionId", encodeURIComponent(sessionId))}`,
      {
        method: "DELETE",
        headers: { ...ctx.headers, "x-api-key": await ctx.key() },
        redirect: "error",
        // Bounded like any attempt: an abort must settle even when the network does not answer.
        ...(Number.isFinite(ctx.timeout) && ctx.timeout > 0
          ? { signal: AbortSignal.timeout(ctx.timeout) }
          : {}),
      },
    );
    await response.arrayBuffer();
  } catch {
    // Best effort.
  }
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
