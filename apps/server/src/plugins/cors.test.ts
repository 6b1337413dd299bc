import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../config.js";
import {
  CORS_ALLOWED_HEADERS,
  CORS_EXPOSED_HEADERS,
  type CorsOrigins,
  corsPlugin,
  parseCorsOrigins,
} from "./cors.js";

/** A bare app with the plugin and an auth-like hook that refuses everything without a key. */
async function appWith(origins: CorsOrigins) {
  const app = Fastify();
  await app.register(corsPlugin, { origins });
  app.addHook("onRequest", async (request, reply) => {
    if (!request.headers["x-api-key"]) return reply.status(401).send({ error: "Unauthorized" });
  });
  app.post("/api/v1/uploads", async (_request, reply) =>
    reply.header("x-request-id", "req-1").send({ ok: 1 }),
  );
  return app;
}

const preflight = (origin: string, method = "POST") => ({
  method: "OPTIONS" as const,
  url: "/api/v1/uploads",
  headers: {
    origin,
    "access-control-request-method": method,
    "access-control-request-headers": "x-api-key,content-type",
  },
});

describe("parseCorsOrigins (TROVE_CORS_ORIGINS)", () => {
  it("defaults to any origin", () => {
    expect(parseCorsOrigins(undefined)).toBe("*");
    expect(parseCorsOrigins(" ")).toBe("*");
    expect(parseCorsOrigins("*")).toBe("*");
  });

  it("turns CORS off with none, and reads a comma-separated list of origins", () => {
    expect(parseCorsOrigins("none")).toBe(false);
    expect(parseCorsOrigins("https://app.example.com, http://localhost:5173")).toEqual([
      "https://app.example.com",
      "http://localhost:5173",
    ]);
  });

  it("refuses what is not an origin", () => {
    for (const bad of [
      "app.example.com",
      "https://app.example.com/",
      "ftp://x.example",
      "https://a.example,",
    ]) {
      expect(() => parseCorsOrigins(bad), bad).toThrow(ConfigError);
    }
  });
});

describe("corsPlugin", () => {
  it("answers a preflight before auth, with the key headers allowed", async () => {
    const app = await appWith("*");
    const response = await app.inject(preflight("http://127.0.0.1:5173", "PUT"));
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["access-control-allow-methods"]).toContain("PUT");
    expect(response.headers["access-control-allow-headers"]).toBe(CORS_ALLOWED_HEADERS.join(", "));
    expect(response.headers["access-control-allow-credentials"]).toBeUndefined();
    await app.close();
  });

  it("exposes the request id and ETag on responses and errors", async () => {
    const app = await appWith("*");
    const ok = await app.inject({
      method: "POST",
      url: "/api/v1/uploads",
      headers: { origin: "https://app.example.com", "x-api-key": "k" },
    });
    expect(ok.headers["access-control-allow-origin"]).toBe("*");
    expect(ok.headers["access-control-expose-headers"]).toBe(CORS_EXPOSED_HEADERS.join(", "));
    expect(CORS_EXPOSED_HEADERS).toEqual(expect.arrayContaining(["x-request-id", "etag", "retry-after"]));
    const denied = await app.inject({
      method: "POST",
      url: "/api/v1/uploads",
      headers: { origin: "https://app.example.com" },
    });
    expect(denied.statusCode).toBe(401);
    expect(denied.headers["access-control-allow-origin"]).toBe("*");
    await app.close();
  });

  it("with a list, reflects only listed origins", async () => {
    const app = await appWith(["https://app.example.com"]);
    const listed = await app.inject(preflight("https://app.example.com"));
    expect(listed.headers["access-control-allow-origin"]).toBe("https://app.example.com");
    expect(listed.headers.vary).toContain("Origin");
    const other = await app.inject(preflight("https://evil.example"));
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    await app.close();
  });

  it("with none, sends no CORS headers", async () => {
    const app = await appWith(false);
    const response = await app.inject(preflight("https://app.example.com"));
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
    await app.close();
  });
});
