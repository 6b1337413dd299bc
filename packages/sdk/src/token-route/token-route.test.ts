import { describe, expect, it, vi } from "vitest";
import { RateLimitError, type TroveError } from "../internal/errors.js";
import { createTokenRoute, type TokenRouteOptions } from "./index.js";

// The refusals the route makes before any token is minted. Minting itself, and Trove's own
// refusals, are tested against a real trove-server in e2e/token-route.test.ts.
const PRIVATE_KEY = `trove_sk_${"A".repeat(43)}`;

/** A route whose minting must not be reached: the client fails the test if it is asked. */
function route(options: Partial<TokenRouteOptions> = {}) {
  const create = vi.fn(() => Promise.reject(new Error("minting was not expected")));
  const handler = createTokenRoute({
    client: { uploadTokens: { create } },
    policy: () => ({ folder: "uploads" }),
    onError: () => {},
    ...options,
  } as TokenRouteOptions);
  return { handler, create };
}

const post = (headers: Record<string, string> = {}) =>
  new Request("http://app.test/api/upload-token", { method: "POST", headers });

describe("createTokenRoute's refusals", () => {
  it("refuses every method but POST with 405, Allow: POST, in the upload envelope, uncached", async () => {
    const policy = vi.fn(() => ({}));
    const { handler, create } = route({ policy });
    for (const method of ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const response = await handler(new Request("http://app.test/t", { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(response.headers.get("cache-control")).toBe("no-store");
      if (method === "HEAD") continue;
      expect(await response.json()).toEqual({
        error: "Method Not Allowed",
        success: false,
        errorCode: "VALIDATION_FAILED",
        message: "Ask for an upload token with POST",
      });
    }
    expect(policy).not.toHaveBeenCalled();
    expect(create).not.toHaveBeenCalled();
  });

  it("answers 403 when authorize says no, asking for no policy and no token", async () => {
    const policy = vi.fn(() => ({}));
    const authorize = vi.fn(async (request: Request) => request.headers.get("cookie") === "session=ok");
    const { handler, create } = route({ policy, authorize });
    const refused = await handler(post({ cookie: "session=other" }));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.json()).toEqual({
      error: "Forbidden",
      success: false,
      errorCode: "FORBIDDEN",
      message: "This request may not upload",
    });
    expect(authorize).toHaveBeenCalledTimes(1);
    expect(policy).not.toHaveBeenCalled();
    expect(create).not.toHaveBeenCalled();
  });

  it("sends a Response that authorize or policy throws as it is (the app's own 401)", async () => {
    const own = () => {
      throw new Response("log in first", { status: 401 });
    };
    for (const options of [{ authorize: own }, { policy: own }]) {
      const response = await route(options).handler(post());
      expect(response.status).toBe(401);
      expect(await response.text()).toBe("log in first");
    }
  });

  it("answers 500 with nothing of a failing policy's error, and gives the error to onError", async () => {
    const onError = vi.fn();
    const failure = new Error("database password is hunter2");
    const response = await route({
      onError,
      policy: () => {
        throw failure;
      },
    }).handler(post());
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("hunter2");
    expect(JSON.parse(text)).toEqual({
      error: "Internal Server Error",
      success: false,
      errorCode: "INTERNAL_ERROR",
      message: "An unexpected error occurred",
    });
    expect(onError).toHaveBeenCalledWith(failure);
  });

  it("keeps Trove's 429 a 429 with its wait, so the page backs off (the SDK has retried already)", async () => {
    const limited = new RateLimitError("Too many requests", {
      code: "RATE_LIMITED",
      status: 429,
      retryAfterSeconds: 7,
    });
    const handler = createTokenRoute({
      client: { uploadTokens: { create: () => Promise.reject(limited) } },
      policy: () => ({}),
      onError: () => {},
    });
    const response = await handler(post());
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({
      error: "Too Many Requests",
      message: expect.stringContaining("7"),
      retryAfterSeconds: 7,
    });
  });

  it("refuses at start-up a public key, an upload token, or no baseUrl: none of them can mint", () => {
    const policy = () => ({});
    for (const options of [
      { privateKey: `trove_pk_${"A".repeat(43)}`, baseUrl: "http://127.0.0.1:1", policy },
      { privateKey: `trove_ut_${"A".repeat(32)}`, baseUrl: "http://127.0.0.1:1", policy },
      { privateKey: PRIVATE_KEY, baseUrl: "", policy },
    ]) {
      expect(() => createTokenRoute(options)).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }) as unknown as TroveError,
      );
    }
    expect(() =>
      createTokenRoute({ privateKey: PRIVATE_KEY, baseUrl: "http://127.0.0.1:1", policy }),
    ).not.toThrow();
  });
});
