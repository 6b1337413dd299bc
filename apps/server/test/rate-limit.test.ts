import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, PROBE, probeRoutes, type TestApp } from "./support/index.js";

describe("rate limiting", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
  });

  it("answers 429 with retryAfterSeconds and Retry-After, per key, in every group", async () => {
    t = await createTestApp({ routes: [probeRoutes], config: { rateLimit: { max: 2, windowMs: 30_000 } } });
    const headers = { "x-api-key": t.keys.private };
    for (let i = 0; i < 2; i++) {
      const ok = await t.app.inject({ method: "GET", url: PROBE.files, headers });
      expect(ok.statusCode).toBe(200);
    }
    for (const [method, url] of [
      ["GET", PROBE.files],
      ["POST", PROBE.upload],
      ["POST", PROBE.sources],
      ["POST", PROBE.multipart],
    ] as const) {
      const limited = await t.app.inject({ method, url, headers });
      expect(limited.statusCode, url).toBe(429);
      const body = limited.json();
      expect(body).toEqual({
        error: "Too Many Requests",
        message: `Rate limit exceeded, retry in ${body.retryAfterSeconds} seconds`,
        retryAfterSeconds: expect.any(Number),
      });
      expect(Number.isInteger(body.retryAfterSeconds)).toBe(true);
      expect(body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(body.retryAfterSeconds).toBeLessThanOrEqual(30);
      expect(limited.headers["retry-after"]).toBe(String(body.retryAfterSeconds));
    }
    // Another key has its own budget.
    const other = await t.app.inject({
      method: "GET",
      url: PROBE.files,
      headers: { "x-api-key": t.keys.private2 },
    });
    expect(other.statusCode).toBe(200);
    // Health and delivery are not API traffic.
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });

  it("limits requests without a key by IP", async () => {
    t = await createTestApp({ routes: [probeRoutes], config: { rateLimit: { max: 1, windowMs: 10_000 } } });
    const first = await t.app.inject({ method: "GET", url: PROBE.files });
    expect(first.statusCode).toBe(401);
    const second = await t.app.inject({ method: "GET", url: PROBE.files });
    expect(second.statusCode).toBe(429);
    expect(second.json().retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Only /api/ traffic counts: health checks and delivery from the same IP still pass.
    expect((await t.app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/assets/nows/x.jpg" })).statusCode).toBe(404);
  });

  it("counts keyless part PUTs per session, apart from the IP's budget", async () => {
    t = await createTestApp({ config: { rateLimit: { max: 1, windowMs: 10_000 } } });
    // The IP's one keyless request is spent...
    expect((await t.app.inject({ method: "GET", url: "/api/v1/files" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/v1/files" })).statusCode).toBe(429);
    // ...yet part uploads from the same IP still reach the gateway (a bad signature is its 400),
    // many times over, because each session has a part budget of its own.
    for (let part = 1; part <= 5; part++) {
      const res = await t.app.inject({
        method: "PUT",
        url: `/api/v1/multipart/parts/00000000-0000-7000-8000-000000000000/${part}?expires=1&signature=00`,
        headers: { "content-type": "application/octet-stream" },
        payload: Buffer.from("x"),
      });
      expect(res.statusCode).toBe(400);
    }
  });
});
