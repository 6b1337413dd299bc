/**
 * `rate-limit` plugin: @fastify/rate-limit in layers, so that neither a flood of made-up keys nor
 * one visitor of a page can spend a budget that others need.
 *
 *   before authentication (onRequest)
 *     /api/ part PUT  -> per client address (`partAddressMax`), then per session (12,000)
 *     other /api/     -> per client address (`addressMax`): missing and wrong keys cost the sender
 *     /admin/         -> the same per-address budget
 *     /console/api/   -> the same per-address budget (console sign-in and session reads)
 *     assets prefix   -> per client address (`assetsMax`)
 *   after authentication (preParsing: after every onRequest hook, so after auth's, and before the
 *   body is read), valid keys only
 *     private key     -> per key (`max`)
 *     public key      -> per (key, address) (`publicKeyAddressMax`), then per key (`publicKeyMax`)
 *     upload token    -> as a public key of its own (`token:<id>`), never its minting key's budget
 *
 * Layers run in that order and stop at the first one exceeded, so a refused request never counts
 * against a wider budget: a visitor over their share does not drain their site's public key.
 * Buckets exist only for addresses, sessions of real part URLs and valid keys, never one per key a
 * client makes up. The client address is the socket's peer unless `trustProxy` names proxies
 * (src/network/trust-proxy.ts); IPv6 clients are counted per /64, what one host usually holds.
 *
 * Counters live in memory, or in Redis when `redisUrl` is set so several instances share them;
 * when Redis is unreachable requests are let through (skipOnError) rather than failed. Over a
 * limit: 429 with `Retry-After` and `{ error, message, retryAfterSeconds }`, rendered by the errors
 * plugin in every group (delivery included), and reported to `onRefused` with the layer's name
 * (the metrics count them). Other answers carry `x-ratelimit-limit`,
 * `-remaining` and `-reset` of the layer with the fewest requests left.
 */
import rateLimit, { normalizeIP } from "@fastify/rate-limit";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Redis } from "ioredis";
import { isDeliveryUrl } from "../delivery/security-headers.js";
import { HttpError } from "../errors/http-error.js";
import type { RateLimitConfig } from "../rate-limit/rate-limit-config.js";

export interface RateLimitPluginOptions {
  limits: RateLimitConfig;
  /** Path prefix of the delivery host (`config.assetsPrefix`). */
  assetsPrefix: string;
  redisUrl?: string | undefined;
  /** Called with the layer's name (`address`, `key`, ...) for each request refused with 429. */
  onRefused?: ((layer: string) => void) | undefined;
}

/** A session has at most 10,000 parts; allow each to be sent once in a window, with retries. */
export const PART_REQUESTS_PER_WINDOW = 12_000;

/** One counter per window for each key `keyOf` gives; the store is shared, keys are prefixed. */
type Limiter = ((request: FastifyRequest) => Promise<LimiterResult>) & { layer: string };
type LimiterResult =
  | { isAllowed: true }
  | { isAllowed: false; max: number; remaining: number; ttl: number; isExceeded: boolean };

/** The client's address as counted: IPv4 as is, IPv6 by its /64. */
export function clientAddressOf(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}

/** The path a request is routed by (its route's pattern when one matched, so encodings don't matter). */
function routedPathOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url.split("?", 1)[0] ?? "";
}

function rateLimitHeaders(max: number, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    "x-ratelimit-limit": String(max),
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": String(resetSeconds),
  };
}

/** Runs `limiters` in order; throws the 429 of the first one exceeded. */
async function enforce(
  request: FastifyRequest,
  reply: FastifyReply,
  limiters: Limiter[],
  onRefused?: (layer: string) => void,
): Promise<void> {
  for (const limiter of limiters) {
    const result = await limiter(request);
    if (result.isAllowed) continue;
    const seconds = Math.max(1, Math.ceil(result.ttl / 1000));
    if (result.isExceeded) {
      onRefused?.(limiter.layer);
      throw new HttpError(429, `Rate limit exceeded, retry in ${seconds} seconds`, {
        retryAfterSeconds: seconds,
        headers: rateLimitHeaders(result.max, 0, seconds),
      });
    }
    // Report the layer with the fewest requests left (a Redis error reports max remaining).
    const shown = reply.getHeader("x-ratelimit-remaining");
    if (shown === undefined || result.remaining < Number(shown)) {
      reply.headers(rateLimitHeaders(result.max, result.remaining, seconds));
    }
  }
}

export const rateLimitPlugin = fp<RateLimitPluginOptions>(
  async (app, options) => {
    const { limits } = options;
    let redis: Redis | undefined;
    if (options.redisUrl) {
      // Loaded only when named (about 0.1 s of CPU at start): most servers count in memory.
      const { Redis } = await import("ioredis");
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
      // No hook of its own (its per-request guard lets one limiter run per request): the
      // limiters below are called from this plugin's hooks.
      global: false,
      timeWindow: limits.windowMs,
      ...(redis ? { redis, nameSpace: "trove-rl:" } : {}),
      skipOnError: true,
    });

    const limiter = (layer: string, max: number, keyOf: (request: FastifyRequest) => string): Limiter =>
      Object.assign(
        app.createRateLimit({
          max,
          timeWindow: limits.windowMs,
          keyGenerator: (request) => `${layer}:${keyOf(request)}`,
        }),
        { layer },
      );
    const { onRefused } = options;

    const sessionOf = (request: FastifyRequest) => (request.params as { sessionId: string }).sessionId;
    // An upload token has budgets of its own, apart from its minting key's.
    const keyIdOf = (request: FastifyRequest) =>
      request.auth.tokenId ? `token:${request.auth.tokenId}` : request.auth.keyId;
    const partLayers = [
      limiter("part-address", limits.partAddressMax, clientAddressOf),
      limiter("part", Math.max(limits.max, PART_REQUESTS_PER_WINDOW), sessionOf),
    ];
    const addressLayers = [limiter("address", limits.addressMax, clientAddressOf)];
    const assetLayers = [limiter("assets", limits.assetsMax, clientAddressOf)];
    const privateKeyLayers = [limiter("key", limits.max, keyIdOf)];
    const publicKeyLayers = [
      limiter(
        "visitor",
        limits.publicKeyAddressMax,
        (request) => `${keyIdOf(request)}:${clientAddressOf(request)}`,
      ),
      limiter("public-key", limits.publicKeyMax, keyIdOf),
    ];

    app.addHook("onRequest", async (request, reply) => {
      const path = routedPathOf(request);
      // Part PUTs carry no key and come by the thousand for one upload: each session has a part
      // budget of its own, apart from its address's API budget; their address bound stops made-up
      // session ids from getting a fresh budget each.
      if (request.routeOptions.config?.operationId === "uploadPart")
        return enforce(request, reply, partLayers, onRefused);
      // The admin API and the console's session API (src/console/) share the address budget:
      // guessing a token or a session cookie costs the guesser.
      if (path.startsWith("/api/") || path.startsWith("/admin/") || path.startsWith("/console/api/"))
        return enforce(request, reply, addressLayers, onRefused);
      if (isDeliveryUrl(path, options.assetsPrefix)) return enforce(request, reply, assetLayers, onRefused);
    });

    app.addHook("preParsing", async (request, reply) => {
      // Set by the auth plugin for valid keys only; keyless routes and refused keys never get here
      // with one.
      if (!request.auth) return;
      const layers = request.auth.keyType === "public" ? publicKeyLayers : privateKeyLayers;
      await enforce(request, reply, layers, onRefused);
    });
  },
  { name: "trove-rate-limit", fastify: "5.x" },
);
