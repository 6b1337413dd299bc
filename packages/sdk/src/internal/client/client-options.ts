import type { SessionStore } from "../upload/session-store.js";
import type { StreamInputs } from "../upload/stream-inputs.js";

export interface ClientOptions {
  /** `trove_pk_…` (upload only, safe in browsers) or `trove_sk_…` (everything, server code only). */
  apiKey: string;
  /** The API host, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The delivery host, for `client.url()`. */
  assetsUrl?: string;
  /** The workspace's `workspace_no`, for `client.url({ source, path })` without one. */
  workspaceNo?: string;
  /** A fetch to use instead of the global one (tests, proxies, instrumented fetches). */
  fetch?: typeof fetch;
  /** Per attempt of an API request, in ms. Default 60 000. */
  timeout?: number;
  /** Per attempt of a request that carries file bytes (a direct upload, one part), in ms. Default 600 000. */
  uploadTimeout?: number;
  /** Retries after the first attempt, per request and per part. Default 2. */
  maxRetries?: number;
  /** Longest wait before a retry, in ms, including a server-requested one. Default 30 000. */
  maxRetryDelay?: number;
  /** Extra headers for every API request (not sent to presigned storage URLs). */
  headers?: Record<string, string>;
  /** Let a private key run in a browser (for trusted internal tools only). Default false. */
  allowPrivateKeyInBrowser?: boolean;
  /**
   * Where multipart sessions are kept for resuming; none by default. createClient resumes from
   * any SessionStore; createUploadClient only from one that brings the resume code along
   * (localStorageSessionStore(), or resumable(store)), so that a page that does not resume does
   * not download it. Given a plain store, its uploads fail with INVALID_ARGUMENT before sending.
   */
  sessionStore?: SessionStore;
  /** Parts sent at once in a multipart upload. Default 4. */
  concurrency?: number;
  /** Inputs larger than this many bytes are sent in parts. Default 8 MiB. */
  multipartThreshold?: number;
  /**
   * In browsers, how an upload of at most `multipartThreshold` bytes that listens to progress is
   * sent. `"session"`: as a one-part multipart session, so its bytes go through
   * XMLHttpRequest (progress as they go out, and pause) to a part URL that carries no key, while
   * the key travels only in start and complete, fetch requests that refuse redirects. `"direct"`
   * (default): one POST through fetch, whose progress is reported once, at the end. `"session"` is
   * not the default yet: its three requests count three times against a key's rate limit.
   * Outside browsers, for streams and without `onProgress`, small inputs always go in one POST.
   */
  smallUploads?: "session" | "direct";
}

export const DEFAULT_TIMEOUT = 60_000;
export const DEFAULT_UPLOAD_TIMEOUT = 600_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_DELAY = 30_000;
/** First backoff ceiling; retries wait up to 0.5 s, 1 s, 2 s, … (full jitter). */
export const BASE_RETRY_DELAY = 500;
export const DEFAULT_CONCURRENCY = 4;
/**
 * 8 MiB: below it one request is cheaper than start + parts + complete; above it a failure
 * should cost one part, not the whole file, and the upload can pause and resume.
 */
export const DEFAULT_MULTIPART_THRESHOLD = 8 * 1024 * 1024;

/**
 * An upload token (`trove_ut_…`), or a function that gets one from your backend, which mints it
 * with its private key (`client.uploadTokens.create()`). The function is called once per upload
 * (per `upload()` or `uploadFromUrl()`, per `multipart.start()` or `.complete()`): a token is
 * one-shot by default, so one token per file is the only safe default. An upload keeps its token
 * for all its requests; when the server refuses it as expired (401 `TOKEN_EXPIRED`: a paused
 * upload, a slow network), the function is called once more and that request sent again.
 */
export type UploadTokenSource = string | (() => string | Promise<string>);

/** createUploadClient's options: a key, or upload tokens instead of a long-lived key. */
export type UploadClientOptions = Omit<ClientOptions, "apiKey"> & {
  /**
   * Lets `upload()` take a ReadableStream: pass `streamInputs` (exported next to
   * createUploadClient). The code that reads streams is not in createUploadClient itself, so a
   * page that uploads Files does not download it; without it a stream fails with
   * INVALID_ARGUMENT before anything is sent. createClient and the Node clients always read them.
   */
  streams?: StreamInputs;
} & ({ apiKey: string; token?: never } | { token: UploadTokenSource; apiKey?: never });
