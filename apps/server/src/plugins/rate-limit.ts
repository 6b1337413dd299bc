/**
 * `rate-limit` plugin: @fastify/rate-limit on every /api/ route, keyed by the API key's SHA-256
 * (else the client IP). Counters live in memory, or in Redis when `redisUrl` is set so several
 * instances share one limit; when Redis is unreachable requests are let through (skipOnError)
 * rather than failed. Over the limit: 429 `{ error, message, retryAfterSeconds }` and
 * `Retry-After`, rendered by the errors plugin for every group.
 */
import rateLimit from "@fastify/rate-limit";
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { Redis } from "ioredis";
import { HttpError } from "../errors/http-error.js";
import { hashApiKey } from "../keys/api-keys.js";
import { apiKeyFromRequest } from "./auth.js";

export interface RateLimitPluginOptions {
  max: number;
  windowMs: number;
  redisUrl?: string | undefined;
}

const PART_GATEWAY = /^\/api\/v1\/multipart\/parts\/([^/?]{1,128})\//;

/**
 * Part PUTs carry no key: they are counted per multipart session, not per IP, so one client's
 * large upload (thousands of parts) neither exhausts nor shares the API budget of its IP.
 */
export function rateLimitKey(request: FastifyRequest): string {
  const part = PART_GATEWAY.exec(request.url);
  if (part) return `part:${part[1]}`;
  const key = apiKeyFromRequest(request);
  return key ? `key:${hashApiKey(key)}` : `ip:${request.ip}`;
}

/** A session has at most 10,000 parts; allow each to be sent once in a window, with retries. */
export const PART_REQUESTS_PER_WINDOW = 12_000;

export const rateLimitPlugin = fp<RateLimitPluginOptions>(
  async (app, options) => {
    let redis: Redis | undefined;
    if (options.redisUrl) {
      redis = new Redis(options.redisUrl, {
        connectTimeout: 2_000,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        lazyConnect: false,
      });
      redis.on("error", (error) =>
        app.log.warn({ err: error }, "redis error (rate limits let requests through)"),
      );
      app.addHook("onClose", async () => {
        await redis?.quit().catch(() => redis?.disconnect());
      });
    }
    await app.register(rateLimit, {
      // Not per route: one app-level onRequest hook (below), so it runs before authentication
      // and also counts requests with missing or wrong keys.
      global: false,
      max: (_request: FastifyRequest, key: string) =>
        key.startsWith("part:") ? Math.max(options.max, PART_REQUESTS_PER_WINDOW) : options.max,
      timeWindow: options.windowMs,
      keyGenerator: rateLimitKey,
      allowList: (request) => !request.url.startsWith("/api/"),
      ...(redis ? { redis, nameSpace: "trove-rl:" } : {}),
      skipOnError: true,
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        return new HttpError(429, `Rate limit exceeded, retry in ${seconds} seconds`, {
          retryAfterSeconds: seconds,
        });
      },
    });
    app.addHook("onRequest", app.rateLimit());
  },
  { name: "trove-rate-limit", fastify: "5.x" },
);
