import type { ClientContext } from "./client-context.js";
import { InvalidResponseError, type TroveError } from "./errors.js";
import type { HttpAnswer } from "./http-answer.js";
import { sendAttempt } from "./send-attempt.js";
import { withRetry } from "./with-retry.js";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
export type QueryValue = string | number | boolean | undefined;

export interface ApiCall {
  method: HttpMethod;
  /** An API path such as `/api/v1/files/12`, relative to `baseUrl`. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  json?: unknown;
  form?: FormData | undefined;
  signal?: AbortSignal | undefined;
  /** Per attempt, in ms; defaults to the client's `timeout`. */
  timeout?: number | undefined;
}

export interface ApiResponse {
  status: number;
  /** Parsed JSON; undefined for an empty body (204). */
  body: unknown;
  requestId: string | undefined;
}

/**
 * One API request with the client's retry policy. Every body the SDK sends is replayable. It always
 * goes through the transport (fetch), never XMLHttpRequest, even when a direct upload wants byte
 * progress: XHR follows every redirect and keeps `x-api-key` on the way to another host.
 *
 * With an upload token getter, a 401 (`TOKEN_EXPIRED`; the multipart group's 401 envelope has no
 * code) gets one new token and the request is sent once more, with its own retries: the server
 * refused it before doing anything, so even a POST cannot run twice. A second 401 is the caller's.
 */
export async function callApi(ctx: ClientContext, call: ApiCall): Promise<ApiResponse> {
  try {
    return await send(ctx, call);
  } catch (error) {
    if (!ctx.renewKey || (error as TroveError | undefined)?.status !== 401) throw error;
    ctx.renewKey();
    return send(ctx, call);
  }
}

async function send(ctx: ClientContext, call: ApiCall): Promise<ApiResponse> {
  const key = await ctx.key();
  const request = { idempotent: call.method !== "POST", replayable: true };
  return withRetry(() => attempt(ctx, call, key), request, ctx.retry, call.signal);
}

function attempt(ctx: ClientContext, call: ApiCall, key: string): Promise<ApiResponse> {
  return sendAttempt(
    ctx,
    call.signal,
    call.timeout ?? ctx.timeout,
    (signal) => ctx.transport(call, signal, key),
    readSuccess,
  );
}

async function readSuccess(response: HttpAnswer): Promise<ApiResponse> {
  const { status } = response;
  const requestId = response.headers.get("x-request-id") ?? undefined;
  const text = await response.text();
  try {
    return { status, body: text === "" ? undefined : (JSON.parse(text) as unknown), requestId };
  } catch (cause) {
    throw new InvalidResponseError(`HTTP ${status} with a body that is not JSON`, {
      code: "INVALID_RESPONSE",
      status,
      requestId,
      body: text,
      cause,
    });
  }
}
