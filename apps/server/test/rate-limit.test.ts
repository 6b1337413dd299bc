import { randomBytes } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import type { RateLimitConfig } from "../src/rate-limit/rate-limit-config.js";
import { createTestApp, PROBE, probeRoutes, type TestApp } from "./support/index.js";
import { multipartBody } from "./uploads-helpers.js";

const A = "10.0.0.1";
const B = "10.0.0.2";
const PNG_BYTES = Buffer.from("not really an image, stored as bytes");

/** Asserts the 429 every layer answers: the shared envelope, and Retry-After equal to its seconds. */
function expectRateLimited(res: LightMyRequestResponse, windowSeconds: number): void {
  expect(res.statusCode, res.body).toBe(429);
  const body = res.json();
  expect(body).toEqual({
    error: "Too Many Requests",
    message: `Rate limit exceeded, retry in ${body.retryAfterSeconds} seconds`,
    retryAfterSeconds: expect.any(Number),
  });
  expect(Number.isInteger(body.retryAfterSeconds)).toBe(true);
  expect(body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(body.retryAfterSeconds).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers["retry-after"]).toBe(String(body.retryAfterSeconds));
}

function randomKey(): string {
  return `trove_sk_${randomBytes(16).toString("hex")}`;
}

describe("rate limiting", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
  });

  const start = async (rateLimit: Partial<RateLimitConfig>) => {
    t = await createTestApp({
      routes: [probeRoutes],
      config: { rateLimit: { windowMs: 30_000, ...rateLimit } },
    });
    return t;
  };

  const upload = async (app: TestApp, key: string, remoteAddress: string) => {
    const { body, contentType } = await multipartBody([
      ["file_name", "visitor.bin"],
      ["file", PNG_BYTES, "visitor.bin", "application/octet-stream"],
    ]);
    return app.app.inject({
      method: "POST",
      url: "/api/v1/uploads",
      headers: { "content-type": contentType, "x-api-key": key },
      payload: body,
      remoteAddress,
    });
  };

  it("1,000 random invalid keys from one address: 401 up to the address limit, 429 after, no bucket per key", async () => {
    const app = await start({ addressMax: 50, max: 2 });
    const statuses: Record<number, number> = {};
    let firstLimited: LightMyRequestResponse | undefined;
    for (let i = 0; i < 1_000; i++) {
      const res = await app.app.inject({
        method: "GET",
        url: PROBE.files,
        headers: { "x-api-key": randomKey() },
        remoteAddress: A,
      });
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      if (res.statusCode === 401) {
        // Counted against the address (50), not a fresh per-key bucket (2).
        expect(res.headers["x-ratelimit-limit"]).toBe("50");
      }
      if (res.statusCode === 429) firstLimited ??= res;
    }
    // A bucket per key would have answered all 1,000 with 401.
    expect(statuses).toEqual({ 401: 50, 429: 950 });
    expectRateLimited(firstLimited as LightMyRequestResponse, 30);
    // A missing key is counted the same way, and so is a path spelled with percent-encoding
    // (routed like /api/, so limited like it).
    expectRateLimited(await app.app.inject({ method: "GET", url: PROBE.files, remoteAddress: A }), 30);
    const encoded = PROBE.files.replace("/api/", "/%61pi/");
    expectRateLimited(await app.app.inject({ method: "GET", url: encoded, remoteAddress: A }), 30);
    // The flood cost nobody else: a valid key from another address has its whole budget.
    for (let i = 0; i < 2; i++) {
      const ok = await app.app.inject({
        method: "GET",
        url: PROBE.files,
        headers: { "x-api-key": app.keys.private },
        remoteAddress: B,
      });
      expect(ok.statusCode).toBe(200);
    }
  });

  it("a public key: one visitor exhausting their share leaves another address's uploads answering", async () => {
    const app = await start({ publicKeyAddressMax: 3, publicKeyMax: 4, max: 1_000 });
    for (let i = 0; i < 3; i++) expect((await upload(app, app.keys.public, A)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expectRateLimited(await upload(app, app.keys.public, A), 30);
    // B's share is untouched, and A's refused requests did not drain the key's shared bucket
    // (3 of its 4 used): B gets the one left.
    const fromB = await upload(app, app.keys.public, B);
    expect(fromB.statusCode, fromB.body).toBe(200);
    expect(fromB.json().data.file_no).toEqual(expect.any(String));
    // The shared bucket is a bound too: all visitors together stop at publicKeyMax.
    expectRateLimited(await upload(app, app.keys.public, "10.0.0.3"), 30);
    // The private key of the same workspace has its own budget.
    expect((await upload(app, app.keys.private, A)).statusCode).toBe(200);
  });

  it("a private key's bucket is per key, whatever the address", async () => {
    const app = await start({ max: 2 });
    const get = (key: string, remoteAddress: string) =>
      app.app.inject({ method: "GET", url: PROBE.files, headers: { "x-api-key": key }, remoteAddress });
    expect((await get(app.keys.private, A)).statusCode).toBe(200);
    expect((await get(app.keys.private, B)).statusCode).toBe(200);
    expectRateLimited(await get(app.keys.private, A), 30);
    expectRateLimited(await get(app.keys.private, "10.0.0.9"), 30);
    // Another key has its own budget; every group renders the same 429.
    expect((await get(app.keys.private2, A)).statusCode).toBe(200);
    for (const [method, url] of [
      ["POST", PROBE.upload],
      ["POST", PROBE.sources],
      ["POST", PROBE.multipart],
    ] as const) {
      const limited = await app.app.inject({ method, url, headers: { "x-api-key": app.keys.private } });
      expectRateLimited(limited, 30);
    }
    // Health checks are not limited.
    expect((await app.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });

  it("the delivery host has its own per-address limit, answered 429 with Retry-After", async () => {
    const app = await start({ assetsMax: 2, addressMax: 2 });
    const asset = (remoteAddress: string) =>
      app.app.inject({ method: "GET", url: "/assets/nows/x.jpg", remoteAddress });
    expect((await asset(A)).statusCode).toBe(404);
    expect((await asset(A)).statusCode).toBe(404);
    const limited = await asset(A);
    expectRateLimited(limited, 30);
    expect(limited.headers["content-type"]).toMatch(/^application\/json/);
    // Another address still gets its answer, and the API budget of A is apart from its assets one.
    expect((await asset(B)).statusCode).toBe(404);
    const api = await app.app.inject({
      method: "GET",
      url: PROBE.files,
      headers: { "x-api-key": app.keys.private },
      remoteAddress: A,
    });
    expect(api.statusCode).toBe(200);
  });

  it("part PUTs keep their per-session budget apart from the API's, under a per-address bound", async () => {
    const app = await start({ addressMax: 1, partAddressMax: 6 });
    // A's one /api/ request is spent...
    expect((await app.app.inject({ method: "GET", url: "/api/v1/files", remoteAddress: A })).statusCode).toBe(
      401,
    );
    expectRateLimited(await app.app.inject({ method: "GET", url: "/api/v1/files", remoteAddress: A }), 30);
    // ...yet part uploads from A still reach the gateway (a bad signature is its 400).
    const putPart = (session: string, part: number, remoteAddress: string) =>
      app.app.inject({
        method: "PUT",
        url: `/api/v1/multipart/parts/${session}/${part}?expires=1&signature=00`,
        headers: { "content-type": "application/octet-stream" },
        payload: Buffer.from("x"),
        remoteAddress,
      });
    for (let part = 1; part <= 6; part++) {
      // Made-up session ids, one per PUT: each would get a fresh session budget if not for the bound.
      const session = `00000000-0000-7000-8000-00000000000${part}`;
      expect((await putPart(session, part, A)).statusCode).toBe(400);
    }
    expectRateLimited(await putPart("00000000-0000-7000-8000-000000000007", 1, A), 30);
    expect((await putPart("00000000-0000-7000-8000-000000000007", 1, B)).statusCode).toBe(400);
  });

  it("X-Forwarded-For is ignored unless a trusted proxy sent it", async () => {
    const get = (app: TestApp, forwardedFor: string) =>
      app.app.inject({
        method: "GET",
        url: PROBE.files,
        headers: { "x-forwarded-for": forwardedFor },
        remoteAddress: "127.0.0.1",
      });
    // No proxy trusted: a client naming a new address each time is still one address.
    const direct = await start({ addressMax: 1 });
    expect((await get(direct, "203.0.113.1")).statusCode).toBe(401);
    expectRateLimited(await get(direct, "203.0.113.2"), 30);
    await direct.close();
    // One trusted hop (TROVE_TRUST_PROXY=1): the proxy's X-Forwarded-For names the client.
    t = await createTestApp({
      routes: [probeRoutes],
      config: { rateLimit: { addressMax: 1, windowMs: 30_000 }, trustProxy: 1 },
    });
    expect((await get(t, "203.0.113.1")).statusCode).toBe(401);
    expectRateLimited(await get(t, "203.0.113.1"), 30);
    expect((await get(t, "203.0.113.2")).statusCode).toBe(401);
  });
});
