import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./support/index.js";

describe("health, readiness, openapi, request ids", () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it("GET /healthz answers without a key", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("GET /readyz pings the database", async () => {
    const res = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ready", database: t.app.dbKind });
  });

  it("GET /readyz is 503 when the database is gone", async () => {
    await t.app.database.close();
    const res = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: "Service Unavailable", message: "Database is not reachable" });
  });

  it("GET /openapi.json serves an OpenAPI 3.1 document, version 1.0.0", async () => {
    const res = await t.app.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc.info.version).toBe("1.0.0");
    // The generated document, not a placeholder: every service endpoint is there.
    expect(Object.keys(doc.paths)).toContain("/api/v1/sources/{sourceId}");
    expect(Object.keys(doc.paths)).toContain("/api/v1/multipart/complete");
  });

  it("echoes a well-formed x-request-id and generates one otherwise", async () => {
    const echoed = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "abc-123" },
    });
    expect(echoed.headers["x-request-id"]).toBe("abc-123");
    const generated = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "bad id\u0001" },
    });
    expect(generated.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const onError = await t.app.inject({ method: "GET", url: "/nope" });
    expect(onError.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
