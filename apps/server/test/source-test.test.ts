// POST /api/v1/sources/:sourceId/test: a try of the origin with the stored credentials, through
// the guarded fetch deliveries use. Origins are a loopback server this file starts (trusted
// through trustedRanges, reached as origin.test by a table resolver); the SSRF refusal is decided
// on a stubbed resolver answer, and the recording connector shows no connection was attempted.
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/index.js";
import {
  forbidSystemDns,
  loopbackOnlyConnector,
  type RecordingConnector,
  startTestServer,
  type TestServer,
  tableLookup,
} from "./support/network-doubles.js";

const S3_SECRET = "SECRET-s3-secret_key-0123456789";
const S3_ACCESS = "AKIASECRETACCESSKEY1";

describe("POST /api/v1/sources/:sourceId/test", () => {
  let t: TestApp;
  let web: TestServer;
  let connector: RecordingConnector;
  let restoreDns: () => void = () => {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    restoreDns = forbidSystemDns();
    web = await startTestServer((req, res: ServerResponse) => {
      const url = req.url ?? "";
      if (url.startsWith("/ok")) res.writeHead(206, { "content-range": "bytes 0-0/10" }).end("x");
      else if (url.startsWith("/denied")) res.writeHead(403).end("no");
      else if (url.startsWith("/bucket-missing/"))
        res
          .writeHead(404, { "content-type": "application/xml" })
          .end("<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>");
      else if (url.startsWith("/bucket-denied/"))
        res
          .writeHead(403, { "content-type": "application/xml" })
          .end("<Error><Code>InvalidAccessKeyId</Code><Message>nope</Message></Error>");
      else res.writeHead(404).end();
    });
    connector = loopbackOnlyConnector();
    t = await createTestApp({
      config: {
        trustedRanges: "127.0.0.0/8",
        origins: { timeoutMs: 3_000 },
        outbound: {
          lookup: tableLookup({ "origin.test": "127.0.0.1", "private.test": "10.1.2.3" }),
          connect: connector,
        },
      },
    });
    const create = async (name: string, type: string, configuration: object) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/sources",
        headers: { "x-api-key": t.keys.private },
        payload: { name, type, configuration },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids[name] = res.json().data.id;
    };
    const origin = `http://origin.test:${web.port}`;
    await create("web-ok", "image_source", { base_url: `${origin}/ok` });
    await create("web-denied", "image_source", { base_url: `${origin}/denied` });
    await create("web-private", "image_source", { base_url: "http://private.test/img" });
    for (const bucket of ["bucket-missing", "bucket-denied"]) {
      await create(bucket, "s3", {
        region: "us-east-1",
        bucket,
        endpoint: origin,
        access_key: S3_ACCESS,
        secret_key: S3_SECRET,
      });
    }
  });
  afterAll(async () => {
    await t?.close();
    await web?.close();
    restoreDns();
  });

  const probe = (id: string, key: string = t.keys.private) =>
    t.app.inject({ method: "POST", url: `/api/v1/sources/${id}/test`, headers: { "x-api-key": key } });

  it("a web origin that answers: ok, with its status and the time taken", async () => {
    const before = web.requests.length;
    const res = await probe(ids["web-ok"] as string);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: { ok: true, status: 206, message: null, elapsed_ms: expect.any(Number) },
    });
    const request = web.requests[before];
    expect(request).toMatchObject({ method: "GET", url: "/ok" });
    expect(request?.headers.range).toBe("bytes=0-0");
  });

  it("a web origin that refuses: not ok, status 403, the reason as text", async () => {
    const res = await probe(ids["web-denied"] as string);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      ok: false,
      status: 403,
      message: expect.stringContaining("403"),
    });
  });

  it("an origin resolving to a private address: refused by the guard before any connection", async () => {
    const dialled = connector.calls.length;
    const res = await probe(ids["web-private"] as string);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      ok: false,
      status: null,
      message: expect.stringMatching(/not allowed/),
    });
    expect(connector.calls.slice(dialled)).toEqual([]);
  });

  it("an S3-like origin: a missing probe object proves the credentials; a refusal is 403, its secrets never shown", async () => {
    const missing = await probe(ids["bucket-missing"] as string);
    expect(missing.json().data).toMatchObject({ ok: true, status: 404, message: null });
    const signed = web.requests.filter((r) => r.url.startsWith("/bucket-missing/")).at(-1);
    expect(String(signed?.headers.authorization)).toContain(S3_ACCESS);

    const denied = await probe(ids["bucket-denied"] as string);
    expect(denied.json().data).toMatchObject({ ok: false, status: 403 });
    expect(denied.json().data.message).toMatch(/bucket-denied/);
    for (const res of [missing, denied]) {
      expect(res.body).not.toContain(S3_SECRET);
      expect(res.body).not.toContain(S3_ACCESS);
    }
  });

  it("404 for an unknown, malformed or other workspace's source; 403 for a public key", async () => {
    for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
      const res = await probe(id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await probe(ids["web-ok"] as string, t.keys.private2)).statusCode).toBe(404);
    expect((await probe(ids["web-ok"] as string, t.keys.public)).statusCode).toBe(403);
    const noKey = await t.app.inject({ method: "POST", url: `/api/v1/sources/${ids["web-ok"]}/test` });
    expect(noKey.statusCode).toBe(401);
  });
});
