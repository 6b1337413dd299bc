// The guard's decision for non-loopback targets, proven WITHOUT dialling them: names resolve from a
// table, and the connector is a recorder that never opens a socket (refusingConnector) or only ever
// opens one to loopback (loopbackOnlyConnector). A broken guard fails these tests; it cannot send a
// packet to any of these addresses.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  forbidSystemDnsInThisFile,
  loopbackOnlyConnector,
  refusingConnector,
  startTestServer,
  type TestServer,
  tableLookup,
} from "../../test/support/network-doubles.js";
import { createGuardedConnector, createGuardedLookup, resolveAndVet } from "./guarded-connector.js";
import { RemoteFetchError } from "./remote-fetch-error.js";
import { safeFetch } from "./safe-fetch.js";

// No test here may use the system resolver: every name comes from tableLookup.
forbidSystemDnsInThisFile();

const NON_LOOPBACK_REFUSED = [
  "10.0.0.1",
  "10.255.0.7",
  "172.16.0.1",
  "172.31.1.1",
  "192.168.0.1",
  "169.254.169.254",
  "100.64.0.1",
  "0.0.0.0",
  "224.0.0.251",
  "255.255.255.255",
  "192.0.2.10",
  "198.18.0.1",
  "240.0.0.1",
  "::ffff:10.0.0.1",
  "::ffff:169.254.169.254",
  "64:ff9b::a9fe:a9fe",
  "fd00::1",
  "fc00::abcd",
  "fe80::1",
  "ff02::1",
  "2001:db8::1",
  "2002:a00:1::1",
  "::",
];

async function expectForbidden(promise: Promise<unknown>): Promise<RemoteFetchError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the guard to refuse");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RemoteFetchError);
  expect(error).toMatchObject({ code: "REMOTE_URL_FORBIDDEN", status: 400 });
  return error as RemoteFetchError;
}

describe("safeFetch refuses names that resolve to non-public addresses, without dialling", () => {
  it.each(NON_LOOPBACK_REFUSED)(
    "evil.example -> %s is refused; the connector is never called",
    async (address) => {
      const lookup = tableLookup({ "evil.example": address });
      const connect = refusingConnector();
      const error = await expectForbidden(safeFetch("http://evil.example/file.jpg", { lookup, connect }));
      expect(error.message).toBe(
        "remote_url resolves to a private or loopback address; set TROVE_TRUSTED_RANGES on the server to allow its range (e.g. 127.0.0.0/8)",
      );
      expect(error.detail).toContain(address);
      expect(lookup.calls).toEqual(["evil.example"]);
      expect(connect.calls).toEqual([]);
    },
  );

  it.each(NON_LOOPBACK_REFUSED)(
    "the IP literal %s is refused before any lookup or connect",
    async (address) => {
      const lookup = tableLookup({});
      const connect = refusingConnector();
      const host = address.includes(":") ? `[${address}]` : address;
      await expectForbidden(safeFetch(`https://${host}:8443/x`, { lookup, connect }));
      expect(lookup.calls).toEqual([]);
      expect(connect.calls).toEqual([]);
    },
  );

  it("refuses when ANY resolved address is disallowed (refuse, not filter)", async () => {
    const lookup = tableLookup({ "mixed.example": ["93.184.216.34", "10.0.0.1"] });
    const connect = refusingConnector();
    const error = await expectForbidden(safeFetch("http://mixed.example/", { lookup, connect }));
    expect(error.detail).toContain("10.0.0.1");
    expect(connect.calls).toEqual([]);
  });

  it("refuses a name that resolves to loopback (rebind.test -> 127.0.0.1) unless trusted", async () => {
    const lookup = tableLookup({ "rebind.test": "127.0.0.1" });
    const connect = refusingConnector();
    await expectForbidden(safeFetch("http://rebind.test/", { lookup, connect }));
    expect(connect.calls).toEqual([]);
  });

  it("trusting loopback does not trust private ranges", async () => {
    const lookup = tableLookup({ "evil.example": "10.0.0.1" });
    const connect = refusingConnector();
    await expectForbidden(
      safeFetch("http://evil.example/", { lookup, connect, trustedRanges: ["127.0.0.0/8"] }),
    );
    expect(connect.calls).toEqual([]);
  });
});

describe("safeFetch allows public addresses (stub connector: no real socket to them)", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("dials exactly the vetted address the lookup returned", async () => {
    const lookup = tableLookup({ "public.example": "93.184.216.34" });
    const connect = refusingConnector();
    const error = await safeFetch("http://public.example/a.jpg", { lookup, connect }).catch(
      (e: unknown) => e,
    );
    // The stub refuses to open anything, so the fetch fails, but only after the guard said yes.
    expect(error).toMatchObject({ code: "REMOTE_FETCH_FAILED", status: 502 });
    expect(connect.calls).toHaveLength(1);
    expect(connect.calls[0]).toMatchObject({ hostname: "93.184.216.34", port: "", protocol: "http:" });
  });

  it("keeps the host name as TLS servername when dialling the vetted address", async () => {
    const lookup = tableLookup({ "secure.example": "2606:4700:4700::1111" });
    const connect = refusingConnector();
    await safeFetch("https://secure.example:8443/x", { lookup, connect }).catch(() => {});
    expect(connect.calls[0]).toMatchObject({
      hostname: "2606:4700:4700::1111",
      servername: "secure.example",
      port: "8443",
      protocol: "https:",
    });
  });

  it("streams a response for a public name, served by a loopback stand-in", async () => {
    server = await startTestServer((_req, res) => res.end("hello from a public host"));
    const lookup = tableLookup({ "public.example": "93.184.216.34" });
    // The connector is asked to dial 93.184.216.34 and connects to the local stand-in instead.
    const connect = loopbackOnlyConnector({ "93.184.216.34": { host: "127.0.0.1", port: server.port } });
    const res = await safeFetch("http://public.example/a.txt", { lookup, connect });
    expect(res.status).toBe(200);
    expect(await text(res.body)).toBe("hello from a public host");
    expect(connect.calls.map((c) => c.hostname)).toEqual(["93.184.216.34"]);
    expect(server.requests[0]?.headers.host).toBe("public.example");
    expect(server.requests[0]?.url).toBe("/a.txt");
  });

  it("resolves once per connection and dials that answer (no check-then-resolve-again window)", async () => {
    server = await startTestServer((_req, res) => res.end("ok"));
    let answers = 0;
    // A rebinding resolver: public on the first query, loopback afterwards.
    const lookup = async () => {
      answers += 1;
      return [{ address: answers === 1 ? "93.184.216.34" : "127.0.0.1", family: 4 }];
    };
    const connect = loopbackOnlyConnector({ "93.184.216.34": { host: "127.0.0.1", port: server.port } });
    const res = await safeFetch("http://rebinding.example/", { lookup, connect });
    await text(res.body);
    expect(answers).toBe(1);
    expect(connect.calls.map((c) => c.hostname)).toEqual(["93.184.216.34"]);
    // The next connection gets the next answer, and that one is refused.
    await expectForbidden(safeFetch("http://rebinding.example/", { lookup, connect }));
    expect(connect.calls).toHaveLength(1);
  });

  it("refuses a redirect from an allowed host to a private literal or name, without dialling it", async () => {
    server = await startTestServer((req, res) => {
      const target = req.url === "/to-literal" ? "http://10.0.0.1/secret" : "http://internal.example/secret";
      res.writeHead(302, { location: target }).end();
    });
    const lookup = tableLookup({ "public.example": "93.184.216.34", "internal.example": "192.168.1.10" });
    const connect = loopbackOnlyConnector({ "93.184.216.34": { host: "127.0.0.1", port: server.port } });
    await expectForbidden(safeFetch("http://public.example/to-literal", { lookup, connect }));
    await expectForbidden(safeFetch("http://public.example/to-name", { lookup, connect }));
    expect(connect.calls.map((c) => c.hostname)).toEqual(["93.184.216.34", "93.184.216.34"]);
    expect(lookup.calls).toEqual(["public.example", "public.example", "internal.example"]);
  });
});

describe("the deadline covers name resolution", () => {
  it("a resolver that never answers fails within timeoutMs, nothing dialled", async () => {
    const connect = refusingConnector();
    const started = Date.now();
    const error = await safeFetch("http://slow-dns.example/", {
      lookup: () => new Promise(() => {}),
      connect,
      timeoutMs: 200,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "REMOTE_FETCH_FAILED", status: 502 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(connect.calls).toEqual([]);
  });

  it("the guarded connector gives up on a lookup after connectTimeoutMs", async () => {
    const inner = refusingConnector();
    const connector = createGuardedConnector({
      connect: inner,
      lookup: () => new Promise(() => {}),
      connectTimeoutMs: 50,
    });
    const error = await new Promise((resolve) =>
      connector({ hostname: "slow-dns.example", protocol: "http:", port: "80" }, (...args) =>
        resolve(args[0]),
      ),
    );
    expect(error).toMatchObject({ code: "REMOTE_FETCH_FAILED", status: 502 });
    expect(inner.calls).toEqual([]);
  });
});

describe("guard building blocks", () => {
  it("resolveAndVet returns every vetted address, classifying literals without lookup", async () => {
    const lookup = tableLookup({ "dual.example": ["93.184.216.34", "2606:4700:4700::1111"] });
    await expect(resolveAndVet("dual.example", { lookup })).resolves.toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:4700:4700::1111", family: 6 },
    ]);
    await expect(resolveAndVet("[::1]", { lookup })).rejects.toMatchObject({ code: "REMOTE_URL_FORBIDDEN" });
    expect(lookup.calls).toEqual(["dual.example"]);
  });

  it("maps resolver failures to REMOTE_FETCH_FAILED (502)", async () => {
    await expect(resolveAndVet("nowhere.example", { lookup: tableLookup({}) })).rejects.toMatchObject({
      code: "REMOTE_FETCH_FAILED",
      status: 502,
    });
    await expect(resolveAndVet("empty.example", { lookup: async () => [] })).rejects.toMatchObject({
      code: "REMOTE_FETCH_FAILED",
    });
  });

  it("createGuardedLookup behaves like dns.lookup and refuses disallowed answers", async () => {
    const guarded = createGuardedLookup({
      lookup: tableLookup({ "ok.example": "93.184.216.34", "bad.example": "10.1.1.1" }),
    });
    const one = await new Promise((resolve, reject) =>
      guarded("ok.example", {}, (error, address, family) =>
        error ? reject(error) : resolve([address, family]),
      ),
    );
    expect(one).toEqual(["93.184.216.34", 4]);
    const all = await new Promise((resolve, reject) =>
      guarded("ok.example", { all: true }, (error, addresses) =>
        error ? reject(error) : resolve(addresses),
      ),
    );
    expect(all).toEqual([{ address: "93.184.216.34", family: 4 }]);
    const refused = await new Promise((resolve) => guarded("bad.example", {}, (error) => resolve(error)));
    expect(refused).toMatchObject({ code: "REMOTE_URL_FORBIDDEN" });
  });

  it("createGuardedConnector passes only vetted literals to the inner connector", async () => {
    const inner = refusingConnector();
    const connector = createGuardedConnector({
      connect: inner,
      lookup: tableLookup({ "a.example": "8.8.8.8", "b.example": "172.20.0.1" }),
    });
    const dial = (hostname: string) =>
      new Promise<unknown>((resolve) =>
        connector({ hostname, host: hostname, protocol: "http:", port: "80" }, (...args) => resolve(args[0])),
      );
    expect(await dial("a.example")).toBeInstanceOf(Error);
    expect(await dial("b.example")).toMatchObject({ code: "REMOTE_URL_FORBIDDEN" });
    expect(await dial("127.0.0.1")).toMatchObject({ code: "REMOTE_URL_FORBIDDEN" });
    expect(await dial("::ffff:7f00:1")).toMatchObject({ code: "REMOTE_URL_FORBIDDEN" });
    expect(inner.calls.map((c) => c.hostname)).toEqual(["8.8.8.8"]);
  });
});

async function text(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}
