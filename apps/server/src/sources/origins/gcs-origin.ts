/**
 * The google_cloud origin reader: one object of a Cloud Storage bucket, read through the JSON API
 * (`GET /storage/v1/b/{bucket}/o/{object}?alt=media`) with an access token of the source's service
 * account (./gcs-origin-token.ts).
 *
 * It speaks HTTP itself (undici, through the address guard) rather than through
 * `@google-cloud/storage`: that client's transport takes no agent (it dials with the global one and
 * follows HTTP_PROXY), so its connections could not be guarded, and its read stream retries, hashes
 * and gunzips where a delivery read wants one bounded exchange.
 *
 * One request per read: the media answer carries the size, type, ETag and Last-Modified, and a
 * cached copy is revalidated with If-None-Match / If-Modified-Since (304: not modified).
 *
 * Creating a reader is cheap (parse the key, one undici Agent, no connection): no token is fetched
 * until the first read, and the token is then kept for its hour, so callers should keep a reader
 * for as long as its source is unchanged and `close()` it when they drop it.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { GoogleCloudConfiguration } from "@trove/schema";
import { type Dispatcher, request } from "undici";
import { type Connector, createGuardedAgent, type LookupAll } from "../../network/index.js";
import { parseServiceAccount, tokenUrlFor } from "./gcs-origin-credentials.js";
import { discard, exchangeFailure, untilAborted } from "./gcs-origin-network.js";
import { createTokenSource, type TokenSource } from "./gcs-origin-token.js";
import { guardOriginBody } from "./origin-body.js";
import { OriginError, originError } from "./origin-error.js";
import type { OriginContext, OriginReader, OriginReadRequest, OriginReadResult } from "./origin-reader.js";

export const GCS_DEFAULT_API_ENDPOINT = "https://storage.googleapis.com";
const DEFAULT_TOKEN_TIMEOUT_MS = 10_000;

export interface GcsOriginContext extends OriginContext {
  /**
   * Base URL of the JSON API (the server's TROVE_GCS_API_ENDPOINT), for tests and GCS-compatible
   * stores; default Google's. Setting it also lets the key's `token_uri` be followed (see
   * `tokenUrlFor`); unset, tokens always come from Google's token endpoint.
   */
  apiEndpoint?: string;
  /** Bound of one token fetch, ms (10 s); a read still fails at its own deadline first. */
  tokenTimeoutMs?: number;
  /** Tests only: the guard's resolver and the connector it hands vetted addresses to. */
  lookup?: LookupAll;
  connect?: Connector;
}

export interface GcsOriginReader extends OriginReader {
  /** Closes the reader's connections; reads after it fail. */
  close(): Promise<void>;
}

export function createGcsOriginReader(
  configuration: GoogleCloudConfiguration,
  context: GcsOriginContext,
): GcsOriginReader {
  const { sourceName } = context;
  const endpoint = apiBase(context.apiEndpoint ?? GCS_DEFAULT_API_ENDPOINT);
  const agent = createGuardedAgent({
    trustedRanges: context.trustedRanges,
    label: "google_cloud endpoint",
    ...(context.lookup ? { lookup: context.lookup } : {}),
    ...(context.connect ? { connect: context.connect } : {}),
  });
  // A key that cannot work fails every read with `denied`, not the reader's creation: the caller
  // builds readers from stored rows and answers per delivery request.
  let tokens: TokenSource | OriginError;
  try {
    const account = parseServiceAccount(configuration.service_account_json, sourceName);
    tokens = createTokenSource({
      account,
      tokenUrl: tokenUrlFor(account, context.apiEndpoint, sourceName),
      dispatcher: agent,
      sourceName,
      timeoutMs: context.tokenTimeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS,
    });
  } catch (error) {
    if (!(error instanceof OriginError)) throw error;
    tokens = error;
  }
  const objectUrl = (path: string) => {
    const url = new URL(
      `storage/v1/b/${encodeURIComponent(configuration.bucket_name)}/o/${encodeURIComponent(path)}`,
      endpoint,
    );
    url.searchParams.set("alt", "media");
    return url;
  };

  return {
    async read(readRequest: OriginReadRequest): Promise<OriginReadResult> {
      const { signal, validators, maxBytes } = readRequest;
      if (tokens instanceof OriginError) throw tokens;
      if (signal.aborted)
        throw originError("timeout", sourceName, "the read was cancelled before it started");
      const token = await tokens.token(signal);
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (validators?.etag) headers["if-none-match"] = validators.etag;
      if (validators?.lastModified) headers["if-modified-since"] = validators.lastModified.toUTCString();
      let response: Dispatcher.ResponseData;
      try {
        response = await untilAborted(
          request(objectUrl(readRequest.path), { method: "GET", dispatcher: agent, headers, signal }),
          signal,
          (late) => discard(late.body),
        );
      } catch (error) {
        throw exchangeFailure(error, signal, sourceName, "storage endpoint");
      }
      const { statusCode } = response;
      if (statusCode !== 200) {
        discard(response.body);
        if (statusCode === 304 && validators) return { kind: "not-modified" };
        if (statusCode === 401) tokens.invalidate();
        throw statusFailure(statusCode, sourceName);
      }
      const size = contentLength(response.headers);
      if (size !== undefined && size > maxBytes) {
        discard(response.body);
        throw originError("too_large", sourceName, `${size} bytes, the limit is ${maxBytes}`);
      }
      const lastModified = headerDate(response.headers, "last-modified");
      return {
        kind: "object",
        object: {
          body: guardOriginBody(response.body, { maxBytes, signal, sourceName }),
          size,
          contentType: header(response.headers, "content-type"),
          etag: header(response.headers, "etag"),
          lastModified,
        },
      };
    },
    close: () => agent.close(),
  };
}

function statusFailure(statusCode: number, sourceName: string): OriginError {
  if (statusCode === 404) return originError("not_found", sourceName, "no such object in the bucket");
  // 403: the account may not read the bucket (or it does not exist: Google hides which).
  if (statusCode === 401 || statusCode === 403) {
    return originError("denied", sourceName, `storage endpoint refused the service account (${statusCode})`);
  }
  return originError("unavailable", sourceName, `storage endpoint answered ${statusCode}`);
}

/** The endpoint as a base URL that relative API paths resolve under (trailing slash kept). */
function apiBase(endpoint: string): URL {
  const url = new URL(endpoint);
  if (!url.pathname.endsWith("/")) url.pathname = `${url.pathname}/`;
  return url;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === "" ? undefined : first;
}

function contentLength(headers: IncomingHttpHeaders): number | undefined {
  const value = header(headers, "content-length");
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

function headerDate(headers: IncomingHttpHeaders, name: string): Date | undefined {
  const value = header(headers, name);
  const date = value === undefined ? undefined : new Date(value);
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}
