/**
 * Outbound HTTP to URLs that users supply (remote-URL upload, webhook delivery), guarded against
 * SSRF: the server never connects to loopback, private, link-local, CGNAT, multicast, broadcast,
 * unspecified, reserved/documentation/benchmarking addresses, nor to IPv6 forms that carry one
 * (`::ffff:127.0.0.1`, NAT64 `64:ff9b::a00:1`; 6to4 and Teredo are refused outright), unless an
 * operator trusts the range (`TROVE_TRUSTED_RANGES="127.0.0.0/8,::1/128"`, for on-premise and tests).
 *
 * ## API
 *
 * ```ts
 * safeFetch(url: string | URL, options?: SafeFetchOptions): Promise<SafeFetchResponse>
 *   options: { method?, headers?, body?: string | Uint8Array | null,
 *              maxBytes? (100 MiB), maxRedirects? (5), timeoutMs? (30 s, whole exchange incl. body),
 *              signal?, trustedRanges?, requireOk?, label? ("remote_url"),
 *              lookup?: LookupAll, connect?: Connector }          // the last two: tests only
 *   returns { status, headers, body: Readable (streamed, size-capped), finalUrl, redirects }
 * discardBody(body: Readable): Promise<void>
 *
 * class RemoteFetchError extends Error {
 *   code: "REMOTE_URL_FORBIDDEN" | "REMOTE_FETCH_FAILED" | "FILE_TOO_LARGE"
 *   status: 400 | 502          // HTTP status for the API's upload error envelope
 *   detail?: string            // internal (resolved address, errno): log it, don't send it
 *   upstreamStatus?: number
 * }
 *
 * checkRemoteUrl(url, { trustedRanges?, label? }): URL   // syntax + IP-literal check, no DNS; throws
 * classifyAddress(ip, { trustedRanges? }): AddressDecision // { allowed, range, trusted, embeddedIPv4?, reason? }
 * isAddressAllowed(ip, { trustedRanges? }): boolean
 * parseTrustedRanges("127.0.0.0/8,::1/128" | string[]): TrustedRanges  // throws TypeError on a bad entry
 *   (TROVE_TRUSTED_RANGES is read with the other settings: src/config/settings.ts, `config.trustedRanges`)
 *
 * resolveAndVet(hostname, { trustedRanges?, lookup?, label? }): Promise<ResolvedAddress[]>
 * createGuardedLookup(opts): net.LookupFunction
 * createGuardedConnector({ ...opts, connect?, connectTimeoutMs? }): Connector
 * createGuardedAgent({ ...opts, headersTimeoutMs?, bodyTimeoutMs? }): undici.Agent
 * ```
 *
 * ## Decisions
 *
 * - Where the check happens: IP-literal hosts are refused before anything is dialled (after WHATWG
 *   normalisation, so `2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1` are all seen as `127.0.0.1`);
 *   host names are resolved at connect time inside undici's connector, every answer is classified,
 *   and the connector is handed the vetted IP literal, so the address checked is the address
 *   dialled (no DNS-rebinding window). Every redirect hop goes through both checks again.
 * - Refuse rather than filter: one disallowed answer among several refuses the whole host.
 * - Status codes (upload error envelope): 400 `REMOTE_URL_FORBIDDEN` (guard refusal, bad scheme,
 *   credentials in URL, unparseable URL); 400 `FILE_TOO_LARGE` (Content-Length or streamed bytes over
 *   `maxBytes`); 400 `REMOTE_FETCH_FAILED` (too many redirects, invalid redirect, upstream 4xx with
 *   `requireOk`); 502 `REMOTE_FETCH_FAILED` (DNS failure, connection error, timeout, upstream 5xx).
 *   The API message never names the resolved address; `detail` does, for logs.
 * - A caller's `signal` aborting rejects with `signal.reason` (as `fetch` does), not a RemoteFetchError.
 *
 * Route usage (remote upload):
 * ```ts
 * const res = await safeFetch(body.remote_url, { maxBytes, requireOk: true, trustedRanges: config.trustedRanges });
 * await storage.put(key, res.body);   // errors mid-stream are RemoteFetchError too
 * ```
 */

export type { CheckUrlOptions } from "./check-url.js";
export { checkRemoteUrl, hostLiteral } from "./check-url.js";
export type { AddressDecision, ClassifyOptions } from "./classify-address.js";
export { classifyAddress, isAddressAllowed } from "./classify-address.js";
export type {
  Connector,
  ConnectorOptions,
  GuardedAgentOptions,
  GuardedConnectorOptions,
  GuardOptions,
  LookupAll,
  ResolvedAddress,
} from "./guarded-connector.js";
export {
  createGuardedAgent,
  createGuardedConnector,
  createGuardedLookup,
  resolveAndVet,
  systemLookup,
} from "./guarded-connector.js";
export type { RemoteFetchErrorCode, RemoteFetchErrorStatus } from "./remote-fetch-error.js";
export { forbiddenAddressError, isRemoteFetchError, RemoteFetchError } from "./remote-fetch-error.js";
export type { SafeFetchOptions, SafeFetchResponse } from "./safe-fetch.js";
export { discardBody, SAFE_FETCH_DEFAULTS, safeFetch } from "./safe-fetch.js";
export type { Cidr, TrustedRanges, TrustedRangesInput } from "./trusted-ranges.js";
export { isTrusted, NO_TRUSTED_RANGES, parseTrustedRanges } from "./trusted-ranges.js";
