import { describe, expect, it } from "vitest";
import {
  AbortError,
  ConflictError,
  ConnectionError,
  InvalidResponseError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  type TroveError,
  ValidationError,
} from "../errors.js";
import { type RetryPolicy, retryDelay, retryRequestOf } from "./retry-policy.js";

const policy: RetryPolicy = { maxRetries: 3, maxRetryDelay: 10_000, baseDelay: 500 };
const idempotent = { idempotent: true, replayable: true };
const post = { idempotent: false, replayable: true };

const connection = (requestNotSent: boolean) =>
  new ConnectionError("x", { code: "CONNECTION_ERROR", requestNotSent });

describe("retryDelay: what is retried", () => {
  const cases: [string, TroveError, boolean, boolean][] = [
    // error, retried when idempotent, retried for a POST
    ["429", new RateLimitError("x", { code: "RATE_LIMITED", status: 429 }), true, true],
    ["408 from the server", new TimeoutError("x", { code: "VALIDATION_FAILED", status: 408 }), true, true],
    ["connection refused (not sent)", connection(true), true, true],
    ["connection reset (maybe processed)", connection(false), true, false],
    ["client timeout", new TimeoutError("x", { code: "TIMEOUT" }), true, false],
    ["500", new ServerError("x", { code: "INTERNAL_ERROR", status: 500 }), true, false],
    ["503", new ServerError("x", { code: "SERVICE_UNAVAILABLE", status: 503 }), true, false],
    ["400", new ValidationError("x", { code: "VALIDATION_FAILED", status: 400 }), false, false],
    ["404", new NotFoundError("x", { code: "NOT_FOUND", status: 404 }), false, false],
    ["409", new ConflictError("x", { code: "CONFLICT", status: 409 }), false, false],
    [
      "invalid 2xx body",
      new InvalidResponseError("x", { code: "INVALID_RESPONSE", status: 200 }),
      false,
      false,
    ],
    ["abort", new AbortError("x", { code: "ABORTED" }), false, false],
  ];

  it.each(cases)("%s: idempotent %s, POST %s", (_, error, forIdempotent, forPost) => {
    expect(retryDelay(error, 1, idempotent, policy) !== undefined).toBe(forIdempotent);
    expect(retryDelay(error, 1, post, policy) !== undefined).toBe(forPost);
  });

  it("never retries a body that cannot be replayed", () => {
    expect(retryDelay(connection(true), 1, { idempotent: true, replayable: false }, policy)).toBeUndefined();
  });

  it("stops after maxRetries", () => {
    const error = new ServerError("x", { code: "INTERNAL_ERROR", status: 500 });
    expect(retryDelay(error, 3, idempotent, policy)).toBeDefined();
    expect(retryDelay(error, 4, idempotent, policy)).toBeUndefined();
  });
});

describe("retryDelay: how long", () => {
  const error = new ServerError("x", { code: "INTERNAL_ERROR", status: 500 });

  it("is exponential backoff with full jitter: uniform in [0, base·2^(n-1))", () => {
    for (const [retry, ceiling] of [
      [1, 500],
      [2, 1000],
      [3, 2000],
    ] as const) {
      expect(retryDelay(error, retry, idempotent, policy, () => 0)).toBe(0);
      expect(retryDelay(error, retry, idempotent, policy, () => 0.5)).toBe(ceiling / 2);
      expect(retryDelay(error, retry, idempotent, policy, () => 0.999_999)).toBe(ceiling - 1);
    }
  });

  it("caps the backoff ceiling at maxRetryDelay", () => {
    const tight = { ...policy, maxRetries: 10, maxRetryDelay: 3000 };
    expect(retryDelay(error, 8, idempotent, tight, () => 0.999_999)).toBe(2999);
  });

  it("waits what the server asked for (retryAfterSeconds), without jitter", () => {
    const limited = new RateLimitError("x", { code: "RATE_LIMITED", status: 429, retryAfterSeconds: 4 });
    expect(retryDelay(limited, 1, post, policy, () => 0)).toBe(4000);
  });

  it("caps a server-requested wait at maxRetryDelay", () => {
    const limited = new RateLimitError("x", { code: "RATE_LIMITED", status: 429, retryAfterSeconds: 120 });
    expect(retryDelay(limited, 1, post, policy)).toBe(10_000);
  });
});

describe("retryRequestOf", () => {
  it("reads POST as the only method that is not idempotent; every body the SDK sends replays", () => {
    for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
      expect(retryRequestOf(method)).toEqual({ idempotent: true, replayable: true });
    }
    expect(retryRequestOf("POST")).toEqual({ idempotent: false, replayable: true });
  });
});
