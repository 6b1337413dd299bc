import { InvalidResponseError, type TroveError } from "../errors.js";
import type { HttpAnswer } from "./http-answer.js";
import type { RetryPolicy } from "./retry-policy.js";

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

/** What both request engines are built from; a client's context carries the same fields. */
export interface RequestSettings {
  /** Absolute, without a trailing slash. */
  readonly baseUrl: string;
  /** The caller's headers for every API request; the engine adds the key per call. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The fetch to send with. Part uploads to presigned URLs use it too: they carry no key, so they
   * may follow redirects (storage may redirect, as S3 does to a bucket's region).
   */
  readonly fetch: typeof fetch;
  readonly retry: RetryPolicy;
  /** Per attempt, in ms; 0 or a non-finite value for none. */
  readonly timeout: number;
  /**
   * Whether a failed fetch provably never left (refused connection): then even a POST is sent
   * again. Only runtimes that say so (Node, Bun, Deno) get one; browsers never tell.
   */
  readonly requestNotSent?: ((error: unknown) => boolean) | undefined;
}

/**
 * One API call with its retries, sent with `key` (as `x-api-key`, or the admin client's bearer
 * token): the only thing that sends the key, so the only thing that has to refuse redirects. Resolves with a 2xx's parsed body; rejects
 * with a TroveError.
 */
export type ApiRequests = (call: ApiCall, key: string) => Promise<ApiResponse>;

/** Where a call gets its engine and its key: a client's context, or one upload's view of it. */
export interface ApiClient {
  readonly requests: ApiRequests;
  /** The key of the next call: a fixed key or admin token, or an upload token from the caller's getter. */
  readonly key: () => string | Promise<string>;
  /** Only with a token getter: forgets a token the server refused (401), so key() gets another. */
  readonly renewKey?: (() => void) | undefined;
}

/**
 * One API call. With an upload token getter, a 401 (`TOKEN_EXPIRED`; the multipart group's 401
 * envelope has no code) gets one new token and the call is sent once more, with its own retries:
 * the server refused it before doing anything, so even a POST cannot run twice. A second 401 is
 * the caller's.
 */
export async function callApi(client: ApiClient, call: ApiCall): Promise<ApiResponse> {
  try {
    return await client.requests(call, await client.key());
  } catch (error) {
    if (!client.renewKey || (error as TroveError | undefined)?.status !== 401) throw error;
    client.renewKey();
    return client.requests(call, await client.key());
  }
}

/** A 2xx answer as an ApiResponse; a body that is not JSON is an InvalidResponseError. */
export async function readSuccess(response: HttpAnswer): Promise<ApiResponse> {
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
