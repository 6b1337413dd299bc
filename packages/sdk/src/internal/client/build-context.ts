import { invalidArgument } from "../invalid-argument.js";
import type { ApiRequests, RequestSettings, UploadSchemas } from "../request/index.js";
import type { SessionResume } from "../upload/resumable-store.js";
import type { StreamInputs } from "../upload/stream-inputs.js";
import type { InputResolver } from "../upload/upload-input.js";
import { assertKeyAllowed } from "./assert-key-allowed.js";
import type { ClientContext } from "./client-context.js";
import {
  BASE_RETRY_DELAY,
  DEFAULT_CONCURRENCY,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_DELAY,
  DEFAULT_MULTIPART_THRESHOLD,
  DEFAULT_TIMEOUT,
  DEFAULT_UPLOAD_TIMEOUT,
  type UploadClientOptions,
} from "./client-options.js";
import { tokenGetterKey } from "./upload-token-key.js";

/** What differs between createClient, createUploadClient and their Node versions. */
export interface ClientParts {
  /** The request engine: kyRequests (createClient) or fetchRequests (createUploadClient). */
  requests: (settings: RequestSettings) => ApiRequests;
  schemas: UploadSchemas;
  resolveInput: InputResolver;
  /** Only where fetch can report a refused connection: Node, Bun, Deno (never a browser). */
  requestNotSent?: ((error: unknown) => boolean) | undefined;
  /** createClient's: resumes from any SessionStore. Without it only a ResumableStore resumes. */
  resume?: SessionResume | undefined;
  /** createClient's: it reads ReadableStreams (and Node Readables) without being asked. */
  streams?: StreamInputs | undefined;
}

/**
 * Checks the options once and fixes every default. A key or token string is sent as it is; the
 * private-key guard reads it (an upload token never looks like a private key, so it passes). A
 * token getter's tokens are not checked: they are minted for browsers.
 */
export function buildContext(options: UploadClientOptions, parts: ClientParts): ClientContext {
  const key = options.apiKey ?? options.token;
  if (typeof key === "string" ? key === "" : typeof key !== "function") {
    throw invalidArgument("apiKey or token is required");
  }
  if (!isAbsoluteUrl(options.baseUrl)) {
    throw invalidArgument("baseUrl must be an absolute URL: https://...");
  }
  if (typeof key === "string") assertKeyAllowed(key, options.allowPrivateKeyInBrowser);

  // Looked up per call, not captured: test tools and polyfills replace globalThis.fetch later.
  const fetchFn: typeof fetch = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);
  const settings: RequestSettings = {
    baseUrl: options.baseUrl.replace(/(?<!\/)\/+$/, ""),
    headers: { ...options.headers },
    fetch: fetchFn,
    retry: {
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      maxRetryDelay: options.maxRetryDelay ?? DEFAULT_MAX_RETRY_DELAY,
      baseDelay: BASE_RETRY_DELAY,
    },
    timeout: options.timeout ?? DEFAULT_TIMEOUT,
    requestNotSent: parts.requestNotSent,
  };
  return {
    ...settings,
    ...(typeof key === "string" ? { key: () => key } : tokenGetterKey(key)),
    requests: parts.requests(settings),
    schemas: parts.schemas,
    resolveInput: parts.resolveInput,
    uploadTimeout: options.uploadTimeout ?? DEFAULT_UPLOAD_TIMEOUT,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    multipartThreshold: options.multipartThreshold ?? DEFAULT_MULTIPART_THRESHOLD,
    smallUploads: options.smallUploads ?? "direct",
    sessionStore: options.sessionStore,
    resume: parts.resume,
    streams: options.streams ?? parts.streams,
  };
}

// Not URL.canParse: Safari added it only in 17.
function isAbsoluteUrl(value: unknown): boolean {
  try {
    return typeof value === "string" && /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}
