/**
 * The `image_source` origin reader: `GET {base_url}/{path}` through the SSRF-guarded fetch
 * (src/network/safe-fetch.ts), the same guard as remote-URL uploads: the base URL, and every
 * redirect it answers with, must resolve to an address outside the private ranges unless the
 * operator trusts them.
 *
 * - `canonical_header` (default `x-forwarded-host`) names the delivery request's header whose
 *   value is the host to read from, for a site served under several host names. The value is
 *   used only when it is the base URL's host or a subdomain of it; anything else is ignored and
 *   the base URL's own host is used. Without that rule any visitor could make Trove fetch (and
 *   cache under the customer's name) a file from a host of their choosing.
 * - `forward_header: true` forwards the delivery request's headers (./forwarded-headers.ts says
 *   which never are).
 * - Statuses: 200 is the object, 304 confirms the cached copy, 404 and 410 are a missing object,
 *   401 and 403 a refusal, anything else (other 4xx, 5xx, a network error) unavailable.
 */
import type { IncomingHttpHeaders } from "node:http";
import { PassThrough } from "node:stream";
import type { ImageSourceConfiguration } from "@trove/schema";
import type { Connector, LookupAll } from "../../network/guarded-connector.js";
import { isRemoteFetchError } from "../../network/remote-fetch-error.js";
import { discardBody, safeFetch } from "../../network/safe-fetch.js";
import { forwardedHeaders } from "./forwarded-headers.js";
import { OriginError, originError } from "./origin-error.js";
import type { OriginContext, OriginReader, OriginReadRequest, OriginReadResult } from "./origin-reader.js";

export const DEFAULT_CANONICAL_HEADER = "x-forwarded-host";

/** Test doubles for the guard (a DNS table, a connector that dials nothing). */
export interface FetchDoubles {
  lookup?: LookupAll;
  connect?: Connector;
}

function headerValue(headers: IncomingHttpHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value)?.trim();
}

/** The base URL with its host replaced by the canonical host, when that host is allowed. */
export function resolveBaseUrl(
  configuration: ImageSourceConfiguration,
  requestHeaders: IncomingHttpHeaders | undefined,
): URL {
  const base = new URL(configuration.base_url);
  const wanted = headerValue(requestHeaders, configuration.canonical_header || DEFAULT_CANONICAL_HEADER)
    ?.split(",")[0]
    ?.trim()
    .toLowerCase();
  // A bare host name (no port, no user info, no path): letters, digits, hyphens and dots.
  if (!wanted || wanted.length > 253 || !/^[a-z0-9.-]+$/.test(wanted)) return base;
  if (wanted !== base.hostname && !wanted.endsWith(`.${base.hostname}`)) return base;
  base.hostname = wanted;
  return base;
}

function objectUrl(base: URL, path: string): URL {
  const url = new URL(base);
  const prefix = url.pathname.replace(/(?<!\/)\/+$/, "");
  url.pathname = `${prefix}/${path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/")}`;
  return url;
}

export function createImageSourceOriginReader(
  configuration: ImageSourceConfiguration,
  context: OriginContext & FetchDoubles,
): OriginReader {
  const name = context.sourceName;
  const baseHost = new URL(configuration.base_url).hostname;
  return {
    scope(requestHeaders) {
      const host = resolveBaseUrl(configuration, requestHeaders).hostname;
      return host === baseHost ? "" : host;
    },
    async read(request: OriginReadRequest): Promise<OriginReadResult> {
      const url = objectUrl(resolveBaseUrl(configuration, request.requestHeaders), request.path);
      const headers: Record<string, string> = configuration.forward_header
        ? forwardedHeaders(request.requestHeaders ?? {})
        : {};
      headers["accept-encoding"] = "identity";
      if (request.validators?.etag) headers["if-none-match"] = request.validators.etag;
      else if (request.validators?.lastModified)
        headers["if-modified-since"] = request.validators.lastModified.toUTCString();
      try {
        const response = await safeFetch(url, {
          headers,
          maxBytes: request.maxBytes,
          signal: request.signal,
          trustedRanges: context.trustedRanges,
          label: `source "${name}"`,
          ...(context.lookup ? { lookup: context.lookup } : {}),
          ...(context.connect ? { connect: context.connect } : {}),
        });
        const header = (key: string) => headerValue(response.headers, key);
        if (response.status === 304) {
          await discardBody(response.body);
          return { kind: "not-modified" };
        }
        if (response.status !== 200) {
          await discardBody(response.body);
          const cause = `HTTP ${response.status}`;
          if (response.status === 404 || response.status === 410) throw originError("not_found", name, cause);
          if (response.status === 401 || response.status === 403) throw originError("denied", name, cause);
          throw originError("unavailable", name, cause);
        }
        const length = header("content-length");
        const lastModified = header("last-modified");
        const modified = lastModified ? new Date(lastModified) : undefined;
        // safeFetch's body stream fails past maxBytes and on the deadline, with its own errors.
        const body = new PassThrough();
        response.body.once("error", (error) => body.destroy(imageSourceError(error, name, request.signal)));
        body.once("close", () => response.body.destroy());
        response.body.pipe(body);
        return {
          kind: "object",
          object: {
            body,
            size: length !== undefined && /^\d{1,15}$/.test(length) ? Number(length) : undefined,
            contentType: header("content-type"),
            etag: header("etag"),
            lastModified: modified && !Number.isNaN(modified.getTime()) ? modified : undefined,
          },
        };
      } catch (error) {
        throw imageSourceError(error, name, request.signal);
      }
    },
  };
}

/** An OriginError for whatever the guarded fetch (or its body stream) failed with. */
export function imageSourceError(error: unknown, name: string, signal: AbortSignal): OriginError {
  if (error instanceof OriginError) return error;
  if (signal.aborted) return originError("timeout", name, "no answer before the deadline");
  if (isRemoteFetchError(error)) {
    const detail = error.detail ?? error.message;
    if (error.code === "REMOTE_URL_FORBIDDEN")
      return originError("forbidden_address", name, "the address is not allowed", { detail });
    if (error.code === "FILE_TOO_LARGE") return originError("too_large", name, error.message, { detail });
    if (error.detail === "deadline exceeded")
      return originError("timeout", name, "no answer in time", { detail });
    return originError("unavailable", name, error.message, { detail });
  }
  return originError("unavailable", name, "request failed", {
    detail: error instanceof Error ? error.message : String(error),
    cause: error,
  });
}
