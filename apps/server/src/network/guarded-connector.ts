import { promises as dns } from "node:dns";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { Agent, buildConnector } from "undici";
import { classifyAddress } from "./classify-address.js";
import { forbiddenAddressError, RemoteFetchError } from "./remote-fetch-error.js";
import { parseTrustedRanges, type TrustedRanges, type TrustedRangesInput } from "./trusted-ranges.js";

/** One resolved address, as `dns.lookup(host, { all: true })` gives it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Resolves a host name to every address it has. The default wraps `dns.lookup` with `all: true`
 * (the system resolver, /etc/hosts included, as every other Node client uses); tests inject a table.
 */
export type LookupAll = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** undici's connector: `(options, callback)`, called once per new connection. */
export type Connector = buildConnector.connector;
export type ConnectorOptions = buildConnector.Options;

export const systemLookup: LookupAll = (hostname) => dns.lookup(hostname, { all: true });

export interface GuardOptions {
  trustedRanges?: TrustedRangesInput;
  /** Injectable resolver (default `systemLookup`). */
  lookup?: LookupAll;
  /** Field name used in error messages (`remote_url`, `webhook_url`). */
  label?: string;
}

export interface GuardedConnectorOptions extends GuardOptions {
  /**
   * The connector that opens sockets, called only with a vetted IP literal as `hostname`
   * (default: undici's `buildConnector`). Tests inject one that records calls and opens nothing.
   */
  connect?: Connector;
  /** TCP/TLS connect timeout of the default connector, ms (10 s). */
  connectTimeoutMs?: number;
}

/**
 * Resolves `hostname` and vets every address. **Refuses if any address is disallowed** rather than
 * filtering: a name that mixes public and private answers is either misconfigured or an attack
 * (rebinding tricks rotate such answers), and filtering would make the outcome depend on order.
 * An IP literal is classified without a lookup. Returns the vetted addresses, resolver order kept.
 */
export async function resolveAndVet(
  hostname: string,
  options: GuardOptions = {},
): Promise<ResolvedAddress[]> {
  const label = options.label ?? "remote_url";
  const trustedRanges = parseTrustedRanges(options.trustedRanges);
  const literal = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  const family = isIP(literal);
  if (family !== 0) {
    const decision = classifyAddress(literal, { trustedRanges });
    if (!decision.allowed) throw forbiddenAddressError(label, decision.reason ?? literal);
    return [{ address: literal, family }];
  }
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await (options.lookup ?? systemLookup)(literal);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new RemoteFetchError("REMOTE_FETCH_FAILED", 502, `${label} host could not be resolved`, {
      detail: `lookup ${literal}: ${typeof code === "string" ? code : String(error)}`,
      cause: error,
    });
  }
  if (addresses.length === 0) {
    throw new RemoteFetchError("REMOTE_FETCH_FAILED", 502, `${label} host could not be resolved`, {
      detail: `lookup ${literal}: no addresses`,
    });
  }
  for (const { address } of addresses) {
    const decision = classifyAddress(address, { trustedRanges });
    if (!decision.allowed) throw forbiddenAddressError(label, `${literal} -> ${decision.reason ?? address}`);
  }
  return [...addresses];
}

/**
 * A `net`/`dns.lookup`-compatible lookup function that vets what it resolves (see `resolveAndVet`).
 * It is handed to the default socket connector as `lookup`, so even a host name that somehow reached
 * `net.connect` would be vetted; in practice the guarded connector only passes IP literals on.
 */
export function createGuardedLookup(options: GuardOptions = {}): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolveAndVet(hostname, options).then(
      (addresses) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable = wanted === 0 ? addresses : addresses.filter((a) => a.family === wanted);
        if (lookupOptions.all) {
          callback(
            null,
            usable.map((a) => ({ address: a.address, family: a.family })),
          );
          return;
        }
        const first = usable[0];
        if (!first) {
          const error = Object.assign(new Error(`no IPv${wanted} address for ${hostname}`), {
            code: "ENOTFOUND",
          });
          callback(error, "", 0);
          return;
        }
        callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, "", 0),
    );
  };
}

/**
 * Wraps a connector so that it only ever dials a vetted address: for each new connection it resolves
 * the host once (`resolveAndVet`), refuses if any answer is disallowed, and calls the inner connector
 * with `hostname` replaced by the first vetted IP literal. The check and the dial use the same
 * answer, so a DNS record that changes between a "check" and a "connect" (rebinding) cannot slip
 * through. For `https:` the original host name is kept as `servername` (SNI and certificate check).
 */
export function createGuardedConnector(options: GuardedConnectorOptions = {}): Connector {
  const guard: GuardOptions = { ...options, trustedRanges: parseTrustedRanges(options.trustedRanges) };
  const inner =
    options.connect ??
    buildConnector({ timeout: options.connectTimeoutMs ?? 10_000, lookup: createGuardedLookup(guard) });
  const lookupTimeoutMs = options.connectTimeoutMs ?? 10_000;
  return (connectOptions, callback) => {
    // undici's own connect timeout starts inside the inner connector; the lookup needs its own.
    let settled = false;
    const done: typeof callback = (...args) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      callback(...args);
    };
    const timer = setTimeout(() => {
      const label = guard.label ?? "remote_url";
      done(
        new RemoteFetchError("REMOTE_FETCH_FAILED", 502, `${label} host could not be resolved in time`, {
          detail: `lookup ${connectOptions.hostname}: timed out after ${lookupTimeoutMs} ms`,
        }),
        null,
      );
    }, lookupTimeoutMs);
    timer.unref();
    resolveAndVet(connectOptions.hostname, guard).then(
      (addresses) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const target = addresses[0]!;
        const isNamed = isIP(stripBrackets(connectOptions.hostname)) === 0;
        const vetted: ConnectorOptions = { ...connectOptions, hostname: target.address };
        if (connectOptions.protocol === "https:" && isNamed && !connectOptions.servername) {
          vetted.servername = stripBrackets(connectOptions.hostname);
        }
        try {
          inner(vetted, callback);
        } catch (error) {
          callback(error as Error, null);
        }
      },
      (error: unknown) => done(error as Error, null),
    );
  };
}

export interface GuardedAgentOptions extends GuardedConnectorOptions {
  /** Headers and body timeouts of the agent, ms (undici's defaults are 300 s). */
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
}

/** An undici `Agent` whose every connection goes through `createGuardedConnector`. */
export function createGuardedAgent(options: GuardedAgentOptions = {}): Agent {
  return new Agent({
    connect: createGuardedConnector(options),
    ...(options.headersTimeoutMs === undefined ? {} : { headersTimeout: options.headersTimeoutMs }),
    ...(options.bodyTimeoutMs === undefined ? {} : { bodyTimeout: options.bodyTimeoutMs }),
  });
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

export type { TrustedRanges };
