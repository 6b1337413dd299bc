/**
 * Failed console sign-ins per client address: 10 in 5 minutes, then 429 RATE_LIMITED with
 * `retryAfterSeconds` until the window ends. Only failures count, so signing in and out does not
 * lock anyone out, and a success does not reset the count (another client behind the same
 * address cannot clear an attacker's).
 *
 * The count is the server's rate limiter (@fastify/rate-limit, src/plugins/rate-limit.ts: in
 * memory, or in Redis shared by every instance when TROVE_REDIS_URL is set), which can only count
 * by adding one. So that a refused address's guesses are not even checked, the instance that sees
 * the count pass the limit remembers the address as blocked until the window ends; another
 * instance learns it from the shared count at its first failure there.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { HttpError } from "../errors/http-error.js";
import { clientAddressOf } from "../plugins/rate-limit.js";

export const SIGN_IN_FAILURES_MAX = 10;
export const SIGN_IN_WINDOW_MS = 5 * 60_000;

export interface SignInThrottle {
  /** Throws the 429 while the request's address is blocked. */
  check(request: FastifyRequest): void;
  /** Counts a failed sign-in; throws the 429 when it is one too many. */
  recordFailure(request: FastifyRequest): Promise<void>;
}

function refusal(untilMs: number, now: number): HttpError {
  const seconds = Math.max(1, Math.ceil((untilMs - now) / 1000));
  return new HttpError(429, `Rate limit exceeded, retry in ${seconds} seconds`, {
    retryAfterSeconds: seconds,
  });
}

export function createSignInThrottle(app: FastifyInstance): SignInThrottle {
  const count = app.createRateLimit({
    max: SIGN_IN_FAILURES_MAX,
    timeWindow: SIGN_IN_WINDOW_MS,
    keyGenerator: (request) => `console-sign-in:${clientAddressOf(request)}`,
  });
  // Blocked addresses until their window ends; bounded, as each entry costs 11 failures.
  const blocked = new LRUCache<string, number>({ max: 10_000 });

  return {
    check(request) {
      const until = blocked.get(clientAddressOf(request));
      const now = Date.now();
      if (until !== undefined && until > now) throw refusal(until, now);
    },
    async recordFailure(request) {
      const result = await count(request);
      if (result.isAllowed || !result.isExceeded) return;
      const now = Date.now();
      const until = now + result.ttl;
      blocked.set(clientAddressOf(request), until);
      app.metrics?.rateLimitRefusals.inc({ layer: "console-sign-in" });
      throw refusal(until, now);
    },
  };
}
