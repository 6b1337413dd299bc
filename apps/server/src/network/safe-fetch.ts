import type { IncomingHttpHeaders } from "node:http";
import { type Readable, Transform, type TransformCallback } from "node:stream";
import { type Dispatcher, request } from "undici";
import { checkRemoteUrl } from "./check-url.js";
import { type Connector, createGuardedAgent, type LookupAll } from "./guarded-connector.js";
import { isRemoteFetchError, RemoteFetchError } from "./remote-fetch-error.js";
import { parseTrustedRanges, type TrustedRangesInput } from "./trusted-ranges.js";

export const SAFE_FETCH_DEFAULTS = Object.freeze({
  maxBytes: 100 * 1024 * 1024,
  maxRedirects: 5,
  timeoutMs: 30_000,
  connectTimeoutMs: 10_000,
});

export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Request body; kept in memory so that a 307/308 redirect can replay it. */
  body?: string | Uint8Array | null;
  /** Largest response body accepted, bytes (100 MiB). Content-Length above it fails before any byte is read. */
  maxBytes?: number;
  /** Redirects followed, each re-checked like the first URL (5). 0 follows none. */
  maxRedirects?: number;
  /** Deadline for the whole exchange, every hop and the body stream included, ms (30 s). */
  timeoutMs?: number;
  /** Aborts the exchange; the promise (or the body stream) then fails with `signal.reason`. */
  signal?: AbortSignal;
  /** Private ranges to allow anyway (`TROVE_TRUSTED_RANGES`). */
  trustedRanges?: TrustedRangesInput;
  /** Fail with `REMOTE_FETCH_FAILED` unless the final status is 2xx (the body is discarded). */
  requireOk?: boolean;
  /** Field name used in error messages (`remote_url`). */
  label?: string;
  /** Injectable resolver (tests). */
  lookup?: LookupAll;
  /** Injectable connector, only ever called with a vetted IP literal (tests). */
  connect?: Connector;
}

export interface SafeFetchResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The response body, streamed: byte-counted against `maxBytes`, bound by the deadline. Consume or destroy it. */
  body: Readable;
  /** URL of the response after redirects. */
  finalUrl: string;
  redirects: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];
const BODY_HEADERS = [
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
];

/**
 * Fetches a URL that a user supplied, without letting it reach the server's own network.
 *
 * Every hop is checked: scheme, credentials and IP literals before anything happens
 * (`checkRemoteUrl`), the resolved addresses at connect time (`createGuardedConnector`). Redirects
 * are followed by hand, up to `maxRedirects`, with the usual method rewriting (303, and 301/302 after
 * POST, become GET without body) and credentials dropped when the origin changes. One deadline covers
 * the whole exchange including the body stream. The body is never buffered: it is returned as a
 * stream that fails with `FILE_TOO_LARGE` once it passes `maxBytes`.
 *
 * Each call uses its own undici Agent (no socket shared with other calls or trust settings), closed
 * when the body ends, fails or is destroyed.
 *
 * Throws `RemoteFetchError`: `REMOTE_URL_FORBIDDEN` (400) when the guard refuses any hop;
 * `FILE_TOO_LARGE` (400); `REMOTE_FETCH_FAILED` with 400 for too many redirects, a bad redirect or
 * an upstream 4xx (`requireOk`), and 502 for network errors, timeouts and upstream 5xx.
 */
export async function safeFetch(
  input: string | URL,
  options: SafeFetchOptions = {},
): Promise<SafeFetchResponse> {
  const label = options.label ?? "remote_url";
  const trustedRanges = parseTrustedRanges(options.trustedRanges);
  const maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  const timeoutMs = options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
  const callerSignal = options.signal;
  callerSignal?.throwIfAborted();

  let url = checkRemoteUrl(input, { trustedRanges, label });

  const agent = createGuardedAgent({
    trustedRanges,
    label,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.connect ? { connect: options.connect } : {}),
    connectTimeoutMs: Math.min(timeoutMs, SAFE_FETCH_DEFAULTS.connectTimeoutMs),
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
  });

  const controller = new AbortController();
  let timedOut = false;
  let bodyStream: Transform | undefined;
  let cleanedUp = false;
  const timeoutError = () =>
    new RemoteFetchError("REMOTE_FETCH_FAILED", 502, `${label} did not answer within ${timeoutMs} ms`, {
      detail: "deadline exceeded",
    });
  const onCallerAbort = () => {
    const reason = callerSignal?.reason;
    bodyStream?.destroy(reason instanceof Error ? reason : new Error("aborted"));
    controller.abort(reason);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    bodyStream?.destroy(timeoutError());
    controller.abort(timeoutError());
  }, timeoutMs);
  timer.unref();
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const cleanup = () => {
    if (cleanedUp) return;
    cleanedUp = true;
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
    agent.destroy().catch(() => {});
  };

  let method = (options.method ?? "GET").toUpperCase();
  let body = options.body ?? null;
  let headers: Record<string, string> = lowerCaseKeys(options.headers ?? {});
  let redirects = 0;

  try {
    for (;;) {
      const response = await untilAborted(
        request(url, {
          dispatcher: agent,
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          signal: controller.signal,
        }),
        controller.signal,
      );
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode) && typeof location === "string" && location !== "") {
        abandon(response.body);
        if (redirects >= maxRedirects) {
          throw new RemoteFetchError(
            "REMOTE_FETCH_FAILED",
            400,
            maxRedirects === 0
              ? `${label} answered with a redirect, which is not followed`
              : `${label} redirected more than ${maxRedirects} times`,
            { upstreamStatus: response.statusCode },
          );
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new RemoteFetchError("REMOTE_FETCH_FAILED", 400, `${label} redirected to an invalid URL`, {
            upstreamStatus: response.statusCode,
          });
        }
        next = checkRemoteUrl(next, { trustedRanges, label });
        redirects += 1;
        const status = response.statusCode;
        if (
          (status === 303 && method !== "HEAD") ||
          ((status === 301 || status === 302) && method === "POST")
        ) {
          method = "GET";
          body = null;
          headers = withoutKeys(headers, BODY_HEADERS);
        }
        if (next.origin !== url.origin) headers = withoutKeys(headers, CREDENTIAL_HEADERS);
        url = next;
        continue;
      }

      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) {
        abandon(response.body);
        throw tooLarge(label, maxBytes, `content-length ${declared}`);
      }
      if (options.requireOk && (response.statusCode < 200 || response.statusCode > 299)) {
        abandon(response.body);
        throw new RemoteFetchError(
          "REMOTE_FETCH_FAILED",
          response.statusCode >= 400 && response.statusCode < 500 ? 400 : 502,
          `${label} answered with HTTP ${response.statusCode}`,
          { upstreamStatus: response.statusCode },
        );
      }

      const source = response.body;
      const limited = new ByteLimit(maxBytes, () => tooLarge(label, maxBytes, `more than ${maxBytes} bytes`));
      bodyStream = limited;
      // Wired by hand rather than with pipeline() so that a failure of the source reaches the reader
      // as a RemoteFetchError, and the agent is closed however the body ends (read, failed, destroyed).
      source.on("error", (error: Error) =>
        limited.destroy(asFetchError(error, label, timedOut, timeoutError)),
      );
      limited.once("close", () => {
        cleanup();
        if (!source.destroyed) source.destroy();
      });
      source.pipe(limited);
      return {
        status: response.statusCode,
        headers: response.headers,
        body: limited,
        finalUrl: url.toString(),
        redirects,
      };
    }
  } catch (error) {
    cleanup();
    if (callerSignal?.aborted && !timedOut) throw callerSignal.reason;
    throw asFetchError(error, label, timedOut, timeoutError);
  }
}

/** Reads a `safeFetch` body to the end and discards it (bounded by the same limits). */
export async function discardBody(body: Readable): Promise<void> {
  for await (const _chunk of body) {
    // drain
  }
}

class ByteLimit extends Transform {
  private seen = 0;
  constructor(
    private readonly limit: number,
    private readonly makeError: () => RemoteFetchError,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) {
      callback(this.makeError());
      return;
    }
    callback(null, chunk);
  }
}

/**
 * undici honours an abort only once the request has a connection; while the connector is still
 * resolving or dialling, the request waits. This rejects at once instead (and discards a response
 * that turns up later).
 */
function untilAborted(
  pending: Promise<Dispatcher.ResponseData>,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  if (signal.aborted) {
    pending.then(
      (late) => abandon(late.body),
      () => {},
    );
    return Promise.reject(signal.reason);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      pending.then(
        (late) => abandon(late.body),
        () => {},
      );
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (response) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) abandon(response.body);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Destroys an undici body we will not read; undici then emits an AbortError nobody needs to see. */
function abandon(body: Readable): void {
  body.on("error", () => {});
  body.destroy();
}

function tooLarge(label: string, maxBytes: number, detail: string): RemoteFetchError {
  return new RemoteFetchError("FILE_TOO_LARGE", 400, `${label} is larger than ${maxBytes} bytes`, { detail });
}

function asFetchError(
  error: unknown,
  label: string,
  timedOut: boolean,
  timeoutError: () => RemoteFetchError,
): RemoteFetchError {
  if (isRemoteFetchError(error)) return error;
  if (timedOut) return timeoutError();
  const code = (error as { code?: unknown } | null)?.code;
  const detail = typeof code === "string" ? code : error instanceof Error ? error.message : String(error);
  const timeoutCodes = ["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"];
  const message =
    typeof code === "string" && timeoutCodes.includes(code)
      ? `${label} did not answer in time`
      : `${label} could not be fetched`;
  return new RemoteFetchError("REMOTE_FETCH_FAILED", 502, message, { detail, cause: error });
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}

function withoutKeys(headers: Record<string, string>, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => !keys.includes(key)));
}
