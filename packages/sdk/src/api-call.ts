import { attemptSignal } from "./attempt-signal.js";
import type { ClientContext } from "./client-context.js";
import { errorFromFailure } from "./error-from-failure.js";
import { errorFromResponse } from "./error-from-response.js";
import { InvalidResponseError } from "./errors.js";
import { searchOf } from "./search-of.js";
import { withRetry } from "./with-retry.js";
import { canUseXhr, xhrSend } from "./xhr-transport.js";

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

async function attempt(ctx: ClientContext, call: ApiCall): Promise<ApiResponse> {
  const timeout = call.timeout ?? ctx.timeout;
  const attemptState = attemptSignal(call.signal, timeout);
  try {
    const response = await send(ctx, call, attemptState.signal);
    if (!response.ok) throw await errorFromResponse(response);
    return await readSuccess(response);
  } catch (error) {
    throw errorFromFailure(error, { outer: call.signal, timedOut: attemptState.timedOut(), timeout });
  } finally {
    attemptState.dispose();
  }
}

function send(ctx: ClientContext, call: ApiCall, signal: AbortSignal): Promise<Response> {
  const { onUploadProgress, form } = call;
  if (onUploadProgress && form && canUseXhr()) {
    const query = searchOf(call.query);
    return xhrSend({
      method: call.method,
      url: `${ctx.baseUrl}${call.path}${query ? `?${query}` : ""}`,
      headers: ctx.headers,
      body: form,
      signal,
      onUploadProgress,
    });
  }
  return ctx.transport(call, signal);
}

async function readSuccess(response: Response): Promise<ApiResponse> {
  const requestId = response.headers.get("x-request-id") ?? undefined;
  const text = await response.text();
  if (text === "") return { status: response.status, body: undefined, requestId };
  try {
    return { status: response.status, body: JSON.parse(text) as unknown, requestId };
  } catch (cause) {
    throw new InvalidResponseError(`HTTP ${response.status} with a body that is not JSON`, {
      code: "INVALID_RESPONSE",
      status: response.status,
      requestId,
      body: text,
      cause,
    });
  }
}
