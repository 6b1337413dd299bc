import { isIP } from "node:net";
import { classifyAddress } from "./classify-address.js";
import { forbiddenAddressError, RemoteFetchError } from "./remote-fetch-error.js";
import type { TrustedRangesInput } from "./trusted-ranges.js";

export interface CheckUrlOptions {
  trustedRanges?: TrustedRangesInput;
  /** Field name used in error messages: `remote_url` (default) or `webhook_url`. */
  label?: string;
}

/**
 * Checks a URL before anything is resolved or dialled, and returns it parsed (WHATWG).
 *
 * Refuses (`REMOTE_URL_FORBIDDEN`, status 400): anything that does not parse as an absolute URL,
 * schemes other than `http:`/`https:`, user names or passwords in the URL, and hosts that are IP
 * literals the guard refuses. WHATWG parsing normalises every IPv4 spelling (`2130706433`,
 * `0177.0.0.1`, `0x7f.1`, `127.1`) to dotted form and IPv6 to its compressed form, and the literal
 * check runs on that normalised host, so no spelling slips past. Host names are not resolved here:
 * they are checked at connect time (./guarded-connector.ts), on the addresses actually dialled.
 */
export function checkRemoteUrl(input: string | URL, options: CheckUrlOptions = {}): URL {
  const label = options.label ?? "remote_url";
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new RemoteFetchError("REMOTE_URL_FORBIDDEN", 400, `${label} must be an absolute http or https URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new RemoteFetchError("REMOTE_URL_FORBIDDEN", 400, `${label} must use http or https`, {
      detail: `scheme ${url.protocol}`,
    });
  }
  if (url.username !== "" || url.password !== "") {
    throw new RemoteFetchError("REMOTE_URL_FORBIDDEN", 400, `${label} must not contain credentials`);
  }
  const host = hostLiteral(url);
  if (host === "") {
    throw new RemoteFetchError("REMOTE_URL_FORBIDDEN", 400, `${label} must name a host`);
  }
  if (isIP(host) !== 0) {
    const decision = classifyAddress(host, { trustedRanges: options.trustedRanges });
    if (!decision.allowed) throw forbiddenAddressError(label, decision.reason ?? host);
  }
  return url;
}

/** The URL's host without IPv6 brackets (`::1` for `http://[::1]/`). */
export function hostLiteral(url: URL): string {
  const host = url.hostname;
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
