import { apiUrl } from "./api-url.js";
import type { ClientContext } from "./client-context.js";
import { InvalidResponseError } from "./errors.js";
import type { HttpAnswer } from "./http-answer.js";
import { sendAttempt } from "./send-attempt.js";
import { withRetry } from "./with-retry.js";
import { sendWithProgress } from "./xhr-transport.js";

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
  /** Bytes of the request body sent so far; only reported through XMLHttpRequest. */
  onUploadProgress?: ((loaded: number, total: number) => void) | undefined;
}

export interface ApiResponse {
  status: number;
  /** Parsed JSON; undefined for an empty body (204). */
  body: unknown;
  requestId: string | undefined;
}

/** One API request with the client's retry policy. Every body the SDK sends is replayable. */
export function callApi(ctx: ClientContext, call: ApiCall): Promise<ApiResponse> {
  const request = { idempotent: call.method !== "POST", replayable: true };
  return withRetry(() => attempt(ctx, call), request, ctx.retry, call.signal);
}

function attempt(ctx: ClientContext, call: ApiCall): Promise<ApiResponse> {
  return sendAttempt(
    ctx,
    call.signal,
    call.timeout ?? ctx.timeout,
    (signal) => send(ctx, call, signal),
    readSuccess,
  );
}

function send(ctx: ClientContext, call: ApiCall, signal: AbortSignal): Promise<HttpAnswer> {
  const { onUploadProgress, form } = call;
  return sendWithProgress(
    form && {
      method: call.method,
      url: apiUrl(ctx.baseUrl, call),
      headers: ctx.headers,
      body: form,
      signal,
      onUploadProgress,
    },
    () => ctx.transport(call, signal),
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
