// End to end against HTTP servers this file starts on loopback. Every fetch here also goes through
// loopbackOnlyConnector, so nothing can be dialled outside 127.0.0.0/8 and ::1 even if the guard broke;
// names resolve from a table (tableLookup), so no DNS server is asked either.
import type { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  forbidSystemDnsInThisFile,
  ipv6LoopbackAvailable,
  loopbackOnlyConnector,
  type RecordingConnector,
  startTestServer,
  type TestServer,
  tableLookup,
} from "../../test/support/network-doubles.js";
import { RemoteFetchError } from "./remote-fetch-error.js";
import { type SafeFetchOptions, safeFetch } from "./safe-fetch.js";

// No test here may use the system resolver: every name comes from tableLookup.
forbidSystemDnsInThisFile();

const LOOPBACK_TRUST = ["127.0.0.0/8"];
let server: TestServer;
let v6: TestServer | undefined;
let connect: RecordingConnector;
const lookup = tableLookup({ localhost: "127.0.0.1", "rebind.test": "127.0.0.1", "v6.localhost": "::1" });
// The server waits for this before sending the rest of /stream (proves the body is not buffered).
let releaseStream: () => void = () => {};

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    switch (url.pathname) {
      case "/hello":
        res.writeHead(200, { "content-type": "text/plain" }).end("hello");
        return;
      case "/redirect": {
        const to = url.searchParams.get("to") ?? "/hello";
        res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: to }).end();
        return;
      }
      case "/loop":
        res.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get("n") ?? 0) + 1}` }).end();
        return;
      case "/echo":
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ method: req.method, headers: req.headers }));
        return;
      case "/big-chunked": {
        // 2 MiB without Content-Length: only streaming counting can catch it.
        res.writeHead(200, { "content-type": "application/octet-stream" });
        const chunk = Buffer.alloc(64 * 1024, 1);
        let sent = 0;
        const pump = () => {
          while (sent < 32) {
            sent += 1;
            if (!res.write(chunk)) {
              res.once("drain", pump);
              return;
            }
          }
          res.end();
        };
        pump();
        return;
      }
      case "/big-declared":
        res.writeHead(200, { "content-length": String(2 * 1024 * 1024) });
        res.end(Buffer.alloc(2 * 1024 * 1024));
        return;
      case "/stream":
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("first,");
        releaseStream = () => res.end("second");
        return;
      case "/stall-body":
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("partial");
        return; // never ends
      case "/status":
        res.writeHead(Number(url.searchParams.get("code") ?? 500)).end("upstream says no");
        return;
      case "/never":
        return; // never answers
      default:
        res.writeHead(404).end();
    }
  });
  if (await ipv6LoopbackAvailable()) {
    v6 = await startTestServer((_req, res) => res.end("hello over ::1"), "::1");
  }
});

afterAll(async () => {
  await server.close();
  await v6?.close();
});

beforeEach(() => {
  connect = loopbackOnlyConnector();
  server.requests.length = 0;
  server.connections = 0;
  lookup.calls.length = 0;
});

const fetchWith = (url: string, options: SafeFetchOptions = {}) =>
  safeFetch(url, { lookup, connect, ...options });

async function text(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function failure(promise: Promise<unknown>): Promise<RemoteFetchError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RemoteFetchError);
  return error as RemoteFetchError;
}

describe("loopback forms are refused without trusted ranges, and the server sees nothing", () => {
  const forms = (port: () => number) => [
    `http://127.0.0.1:${port()}/hello`,
    `http://localhost:${port()}/hello`,
    `http://rebind.test:${port()}/hello`,
    `http://[::1]:${port()}/hello`,
    `http://2130706433:${port()}/hello`,
    `http://0177.0.0.1:${port()}/hello`,
    `http://0x7f.1:${port()}/hello`,
    `http://127.1:${port()}/hello`,
    `http://0.0.0.0:${port()}/hello`,
    `http://[::ffff:127.0.0.1]:${port()}/hello`,
  ];

  it("refuses every form", async () => {
    for (const url of forms(() => server.port)) {
      const error = await failure(fetchWith(url));
      expect(error, url).toMatchObject({ code: "REMOTE_URL_FORBIDDEN", status: 400 });
    }
    expect(server.connections).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(connect.calls).toHaveLength(0);
  });
});

describe("with trustedRanges 127.0.0.0/8", () => {
  it.each([
    "http://127.0.0.1:PORT/hello",
    "http://localhost:PORT/hello",
    "http://2130706433:PORT/hello",
    "http://0177.0.0.1:PORT/hello",
    "http://0x7f.1:PORT/hello",
    "http://127.1:PORT/hello",
    "http://[::ffff:127.0.0.1]:PORT/hello",
  ])("%s works and streams the body", async (template) => {
    const res = await fetchWith(template.replace("PORT", String(server.port)), {
      trustedRanges: LOOPBACK_TRUST,
    });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain");
    expect(await text(res.body)).toBe("hello");
    expect(server.requests).toHaveLength(1);
  });

  it("still refuses 0.0.0.0 and ::1 (not in the trusted range)", async () => {
    await failure(fetchWith(`http://0.0.0.0:${server.port}/hello`, { trustedRanges: LOOPBACK_TRUST }));
    await failure(fetchWith(`http://[::1]:${server.port}/hello`, { trustedRanges: LOOPBACK_TRUST }));
    expect(server.connections).toBe(0);
  });

  it("streams: the first bytes arrive before the server has finished", async () => {
    const res = await fetchWith(`http://127.0.0.1:${server.port}/stream`, { trustedRanges: LOOPBACK_TRUST });
    const iterator = res.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(String(first.value)).toBe("first,");
    releaseStream();
    let rest = "";
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      rest += String(next.value);
    expect(rest).toBe("second");
  });

  it("follows redirects on the trusted server, re-checking each hop", async () => {
    const res = await fetchWith(`http://127.0.0.1:${server.port}/redirect?to=/redirect%3Fto%3D/hello`, {
      trustedRanges: LOOPBACK_TRUST,
    });
    expect(await text(res.body)).toBe("hello");
    expect(res.finalUrl).toBe(`http://127.0.0.1:${server.port}/hello`);
    expect(res.redirects).toBe(2);
  });

  it("refuses a redirect to http://10.0.0.1/ without dialling it", async () => {
    const error = await failure(
      fetchWith(`http://127.0.0.1:${server.port}/redirect?to=${encodeURIComponent("http://10.0.0.1/")}`, {
        trustedRanges: LOOPBACK_TRUST,
      }),
    );
    expect(error).toMatchObject({ code: "REMOTE_URL_FORBIDDEN", status: 400 });
    expect(connect.calls.map((c) => c.hostname)).toEqual(["127.0.0.1"]);
  });

  it("refuses a redirect to a name resolving to a private address, without dialling it", async () => {
    const local = tableLookup({ "intranet.test": "192.168.1.1" });
    await failure(
      safeFetch(
        `http://127.0.0.1:${server.port}/redirect?to=${encodeURIComponent("http://intranet.test/")}`,
        {
          lookup: local,
          connect,
          trustedRanges: LOOPBACK_TRUST,
        },
      ),
    );
    expect(local.calls).toEqual(["intranet.test"]);
    expect(connect.calls.map((c) => c.hostname)).toEqual(["127.0.0.1"]);
  });

  it.each(["http://[::1]:PORT/hello", "http://0.0.0.0:PORT/hello", "http://v6.localhost:PORT/hello"])(
    "refuses a redirect to the untrusted loopback form %s",
    async (template) => {
      const to = template.replace("PORT", String(server.port));
      const error = await failure(
        fetchWith(`http://127.0.0.1:${server.port}/redirect?to=${encodeURIComponent(to)}`, {
          trustedRanges: LOOPBACK_TRUST,
        }),
      );
      expect(error.code).toBe("REMOTE_URL_FORBIDDEN");
      expect(server.requests.map((r) => r.url)).toEqual([`/redirect?to=${encodeURIComponent(to)}`]);
    },
  );

  it("refuses non-http redirect targets", async () => {
    const error = await failure(
      fetchWith(`http://127.0.0.1:${server.port}/redirect?to=${encodeURIComponent("file:///etc/passwd")}`, {
        trustedRanges: LOOPBACK_TRUST,
      }),
    );
    expect(error.code).toBe("REMOTE_URL_FORBIDDEN");
  });

  it("enforces the redirect limit", async () => {
    const error = await failure(
      fetchWith(`http://127.0.0.1:${server.port}/loop`, { trustedRanges: LOOPBACK_TRUST, maxRedirects: 2 }),
    );
    expect(error).toMatchObject({ code: "REMOTE_FETCH_FAILED", status: 400, upstreamStatus: 302 });
    expect(error.message).toMatch(/more than 2/);
    expect(server.requests.map((r) => r.url)).toEqual(["/loop", "/loop?n=1", "/loop?n=2"]);
  });

  it("maxRedirects 0 follows none", async () => {
    const error = await failure(
      fetchWith(`http://127.0.0.1:${server.port}/redirect`, {
        trustedRanges: LOOPBACK_TRUST,
        maxRedirects: 0,
      }),
    );
    expect(error.message).toMatch(/not followed/);
    expect(server.requests).toHaveLength(1);
  });

  it("rewrites POST to GET on 303 and drops credentials when the origin changes", async () => {
    const otherOrigin = `http://localhost:${server.port}/echo`;
    const res = await fetchWith(
      `http://127.0.0.1:${server.port}/redirect?status=303&to=${encodeURIComponent(otherOrigin)}`,
      {
        trustedRanges: LOOPBACK_TRUST,
        method: "POST",
        body: "{}",
        headers: { "Content-Type": "application/json", Authorization: "Bearer secret", "X-Keep": "1" },
      },
    );
    const echoed = JSON.parse(await text(res.body)) as { method: string; headers: Record<string, string> };
    expect(echoed.method).toBe("GET");
    expect(echoed.headers.authorization).toBeUndefined();
    expect(echoed.headers["content-type"]).toBeUndefined();
    expect(echoed.headers["x-keep"]).toBe("1");
  });

  it("keeps method and body on 307", async () => {
    const res = await fetchWith(`http://127.0.0.1:${server.port}/redirect?status=307&to=/echo`, {
      trustedRanges: LOOPBACK_TRUST,
      method: "POST",
      body: "payload",
    });
    expect(JSON.parse(await text(res.body)).method).toBe("POST");
    expect(server.requests.map((r) => [r.method, r.body])).toEqual([
      ["POST", "payload"],
      ["POST", "payload"],
    ]);
  });

  it("fails the stream with FILE_TOO_LARGE once more than maxBytes arrive", async () => {
    const res = await fetchWith(`http://127.0.0.1:${server.port}/big-chunked`, {
      trustedRanges: LOOPBACK_TRUST,
      maxBytes: 1024 * 1024,
    });
    expect(res.status).toBe(200);
    let received = 0;
    const error = await (async () => {
      for await (const chunk of res.body) received += (chunk as Buffer).length;
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "FILE_TOO_LARGE", status: 400 });
    expect(received).toBeLessThanOrEqual(1024 * 1024);
  });

  it("refuses early on a Content-Length above maxBytes", async () => {
    const error = await failure(
      fetchWith(`http://127.0.0.1:${server.port}/big-declared`, {
        trustedRanges: LOOPBACK_TRUST,
        maxBytes: 1024 * 1024,
      }),
    );
    expect(error).toMatchObject({ code: "FILE_TOO_LARGE", status: 400 });
  });

  it("times out a server that never answers, within the deadline", async () => {
    const started = Date.now();
    const error = await failure(
      fetchWith(`http://127.0.0.1:${server.port}/never`, { trustedRanges: LOOPBACK_TRUST, timeoutMs: 300 }),
    );
    expect(error).toMatchObject({ code: "REMOTE_FETCH_FAILED", status: 502 });
    expect(error.message).toMatch(/within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("times out a body that stalls, the deadline covering the stream too", async () => {
    const res = await fetchWith(`http://127.0.0.1:${server.port}/stall-body`, {
      trustedRanges: LOOPBACK_TRUST,
      timeoutMs: 300,
    });
    const error = await text(res.body).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "REMOTE_FETCH_FAILED", status: 502 });
  });

  it("returns upstream errors as statuses, or fails with requireOk (4xx -> 400, 5xx -> 502)", async () => {
    const plain = await fetchWith(`http://127.0.0.1:${server.port}/status?code=503`, {
      trustedRanges: LOOPBACK_TRUST,
    });
    expect(plain.status).toBe(503);
    await text(plain.body);
    const notFound = await failure(
      fetchWith(`http://127.0.0.1:${server.port}/status?code=404`, {
        trustedRanges: LOOPBACK_TRUST,
        requireOk: true,
      }),
    );
    expect(notFound).toMatchObject({ code: "REMOTE_FETCH_FAILED", status: 400, upstreamStatus: 404 });
    const unavailable = await failure(
      fetchWith(`http://127.0.0.1:${server.port}/status?code=503`, {
        trustedRanges: LOOPBACK_TRUST,
        requireOk: true,
      }),
    );
    expect(unavailable).toMatchObject({ code: "REMOTE_FETCH_FAILED", status: 502, upstreamStatus: 503 });
  });

  it("maps a refused connection to REMOTE_FETCH_FAILED (502)", async () => {
    const closed = await startTestServer(() => {});
    const port = closed.port;
    await closed.close();
    const error = await failure(fetchWith(`http://127.0.0.1:${port}/`, { trustedRanges: LOOPBACK_TRUST }));
    expect(error).toMatchObject({ code: "REMOTE_FETCH_FAILED", status: 502, detail: "ECONNREFUSED" });
  });

  it("honours the caller's AbortSignal", async () => {
    const controller = new AbortController();
    const pending = fetchWith(`http://127.0.0.1:${server.port}/never`, {
      trustedRanges: LOOPBACK_TRUST,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("client went away")), 50);
    await expect(pending).rejects.toThrow("client went away");
  });
});

describe("IPv6 loopback", () => {
  it("[::1] is refused without trust and works with ::1/128 trusted", async (ctx) => {
    if (!v6) ctx.skip();
    const target = v6!;
    await failure(fetchWith(`${target.origin}/`));
    expect(target.connections).toBe(0);
    const res = await fetchWith(`${target.origin}/`, { trustedRanges: ["::1/128"] });
    expect(await text(res.body)).toBe("hello over ::1");
    expect(connect.calls.map((c) => c.hostname)).toEqual(["::1"]);
  });
});
