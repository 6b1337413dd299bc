/**
 * Test doubles for code that goes through the SSRF guard (network and webhooks tests).
 *
 * Tests never let traffic leave loopback: names are resolved from a table (`tableLookup`, nothing
 * reaches a DNS server) and sockets are opened only by `loopbackOnlyConnector`, which records every
 * address it is asked to dial and refuses anything outside 127.0.0.0/8 and ::1 without opening a
 * socket. So even a broken guard makes a test fail, never sends a packet elsewhere.
 */
import dns from "node:dns";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, isIP, type Socket } from "node:net";
import { buildConnector } from "undici";
import { afterAll, beforeAll } from "vitest";
import type {
  Connector,
  ConnectorOptions,
  LookupAll,
  ResolvedAddress,
} from "../../src/network/guarded-connector.js";

/** Resolves names from a fixed table; an unknown name fails like NXDOMAIN. Records every call. */
export function tableLookup(
  table: Record<string, string | readonly string[]>,
): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const entry = table[hostname.toLowerCase()];
    if (entry === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    }
    return (typeof entry === "string" ? [entry] : entry).map((address) => ({
      address,
      family: address.includes(":") ? 6 : 4,
    }));
  };
  return Object.assign(lookup, { calls });
}

export interface RecordingConnector extends Connector {
  /** Every dial request the guard let through, in order. */
  calls: ConnectorOptions[];
}

/** A connector that records calls and fails every one without opening anything. */
export function refusingConnector(): RecordingConnector {
  const calls: ConnectorOptions[] = [];
  const connect: Connector = (options, callback) => {
    calls.push({ ...options });
    callback(new Error(`test connector: refusing to dial ${options.hostname}`), null);
  };
  return Object.assign(connect, { calls });
}

const LOOPBACK =
  /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4})$/i;

/**
 * A real connector limited to loopback: dials 127.0.0.0/8 and ::1 (and their IPv4-mapped forms),
 * refuses anything else without a socket, and records every call.
 * `redirect` maps a dialled address to a loopback host:port instead (to serve a "public" name from
 * a local server without dialling the public address).
 */
export function loopbackOnlyConnector(
  redirect: Record<string, { host: string; port: number }> = {},
): RecordingConnector {
  const calls: ConnectorOptions[] = [];
  const real = buildConnector({ timeout: 5_000 });
  const connect: Connector = (options, callback) => {
    calls.push({ ...options });
    const target = redirect[options.hostname];
    if (target) {
      if (!LOOPBACK.test(target.host)) throw new Error(`test connector: ${target.host} is not loopback`);
      real({ ...options, hostname: target.host, port: String(target.port), protocol: "http:" }, callback);
      return;
    }
    if (!LOOPBACK.test(options.hostname)) {
      callback(new Error(`test connector: refusing to dial non-loopback ${options.hostname}`), null);
      return;
    }
    real(options, callback);
  };
  return Object.assign(connect, { calls });
}

export interface TestServer {
  server: Server;
  port: number;
  host: string;
  /** `http://host:port` (IPv6 hosts bracketed). */
  origin: string;
  /** Requests seen, in order. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }>;
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

/** Starts an HTTP server on a loopback address (127.0.0.1 unless told), port 0. */
export async function startTestServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
  host = "127.0.0.1",
): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const state: TestServer = {
    server: createServer(),
    port: 0,
    host,
    origin: "",
    requests: [],
    connections: 0,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => state.server.close(() => resolve()));
    },
  };
  state.server.on("connection", (socket: Socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  state.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      state.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    state.server.once("error", reject);
    state.server.listen(0, host, () => resolve());
  });
  state.port = (state.server.address() as AddressInfo).port;
  state.origin = `http://${host.includes(":") ? `[${host}]` : host}:${state.port}`;
  return state;
}

/** Whether this machine can listen on ::1. */
export async function ipv6LoopbackAvailable(): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(0, "::1", () => server.close(() => resolve(true)));
  });
}

/**
 * `forbidSystemDns` for the whole of the calling test file: call it once at the top level, and no
 * test in the file may use the system resolver (every name comes from tableLookup).
 */
export function forbidSystemDnsInThisFile(): void {
  let restore: () => void = () => {};
  beforeAll(() => {
    restore = forbidSystemDns();
  });
  afterAll(() => restore());
}

/**
 * Makes the system resolver throw for the duration of a test file, so a test that forgot to inject
 * `lookup` fails instead of sending a DNS query. Returns the function that restores it.
 */
export function forbidSystemDns(): () => void {
  const original = { lookup: dns.lookup, promisesLookup: dns.promises.lookup };
  const refuse = (hostname: unknown) => {
    throw new Error(`test tried a real DNS lookup of ${String(hostname)}: inject a lookup (tableLookup)`);
  };
  // IP literals never reach a resolver (Node answers them itself); listen() and connect() use them.
  dns.lookup = ((hostname: string, ...rest: unknown[]) =>
    isIP(hostname) === 0
      ? refuse(hostname)
      : (original.lookup as (...args: unknown[]) => void)(hostname, ...rest)) as unknown as typeof dns.lookup;
  dns.promises.lookup = (async (hostname: string, ...rest: unknown[]) =>
    isIP(hostname) === 0
      ? refuse(hostname)
      : (original.promisesLookup as (...args: unknown[]) => Promise<unknown>)(
          hostname,
          ...rest,
        )) as typeof dns.promises.lookup;
  return () => {
    dns.lookup = original.lookup;
    dns.promises.lookup = original.promisesLookup;
  };
}
