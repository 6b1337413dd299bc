import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, admin, createAdminTestApp } from "./admin-support.js";
import { createTestApp, PROBE, probeRoutes, type TestApp } from "./support/index.js";

const UNAUTHORIZED = {
  error: "Unauthorized",
  errorCode: "UNAUTHORIZED",
  message: "Invalid or missing admin token",
};

describe("admin API authentication", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createAdminTestApp({ routes: [probeRoutes] });
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers with the admin token", async () => {
    const res = await admin(t, "GET", "/admin/v1/workspaces");
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(2);
  });

  it("refuses a request without a token, with a wrong one, or with one only its prefix long: 401", async () => {
    for (const token of [
      null,
      "nope",
      ADMIN_TOKEN.slice(0, -1),
      `${ADMIN_TOKEN}x`,
      ADMIN_TOKEN.toUpperCase(),
    ]) {
      const res = await admin(t, "GET", "/admin/v1/workspaces", undefined, token);
      expect(res.statusCode, String(token)).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
  });

  it("takes the admin token on an /admin/ route that does not say its auth mode (the default)", async () => {
    expect((await admin(t, "GET", PROBE.defaultAdminAuth, undefined, null)).statusCode).toBe(401);
    expect((await admin(t, "GET", PROBE.defaultAdminAuth, undefined, "wrong")).statusCode).toBe(401);
    const keyed = await t.app.inject({
      method: "GET",
      url: PROBE.defaultAdminAuth,
      headers: { "x-api-key": t.keys.private },
    });
    expect(keyed.statusCode).toBe(401);
    expect((await admin(t, "GET", PROBE.defaultAdminAuth)).statusCode).toBe(200);
  });

  it("refuses workspace keys, as bearer or x-api-key: the admin token is a separate secret", async () => {
    for (const key of [t.keys.private, t.keys.public]) {
      expect((await admin(t, "GET", "/admin/v1/workspaces", undefined, key)).statusCode).toBe(401);
      const viaHeader = await t.app.inject({
        method: "GET",
        url: "/admin/v1/workspaces",
        headers: { "x-api-key": key },
      });
      expect(viaHeader.statusCode).toBe(401);
    }
    // Nor does the admin token work as a workspace key.
    const asKey = await t.app.inject({
      method: "GET",
      url: "/api/v1/files",
      headers: { "x-api-key": ADMIN_TOKEN },
    });
    expect(asKey.statusCode).toBe(401);
  });

  it("refuses before reading the body: a bad body without the token is a 401, not a 400", async () => {
    const res = await admin(t, "POST", "/admin/v1/workspaces", { nope: 1 }, null);
    expect(res.statusCode).toBe(401);
  });
});

describe("admin API switched off (no TROVE_ADMIN_TOKEN)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers 404 as for an unknown route, whatever the credential", async () => {
    for (const token of [null, ADMIN_TOKEN, t.keys.private]) {
      const res = await admin(t, "GET", "/admin/v1/workspaces", undefined, token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: "Not Found", message: "Route GET /admin/v1/workspaces not found" });
    }
    expect((await admin(t, "POST", "/admin/v1/workspaces", { name: "x" })).statusCode).toBe(404);
  });
});
