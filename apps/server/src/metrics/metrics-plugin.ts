/**
 * `metrics` plugin: counts requests into `app.metrics` and serves the scrape. `app.metrics` (a
 * TroveMetrics, or null when TROVE_METRICS is off, so code that counts writes `app.metrics?.…` and
 * costs nothing when off) is built with the other services (src/services.ts; its gauges' sources
 * in ./metrics-sources.ts).
 *
 * Counted here, in one `onResponse` hook, from what the response already says: every request
 * (method, route pattern, status, duration), the body bytes of successful delivery GETs (their
 * Content-Length), variant cache hits and misses (the `X-Cache` header variant delivery sets), and
 * uploads refused (4xx) or failed (5xx) on the endpoints that finish an upload. Successful uploads
 * are counted where the file row commits (src/uploads/register-file.ts), which knows the size and
 * whether the content was a duplicate; rate-limit refusals where the limit is checked.
 *
 * With `expose: "port"` the listener starts when the app is ready and closes with it;
 * `app.metricsServer` is that listener (tests read its port).
 */
import type { Server } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { isDeliveryUrl } from "../delivery/security-headers.js";
import { createMetricsServer, listen, registerMetricsRoute } from "./metrics-endpoint.js";
import { routeLabel, uploadPathOf } from "./request-labels.js";
import type { TroveMetrics } from "./trove-metrics.js";

function countResponse(
  metrics: TroveMetrics,
  assetsPrefix: string,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const route = routeLabel(request);
  const labels = { method: request.method, route, status: String(reply.statusCode) };
  metrics.requests.inc(labels);
  metrics.requestDuration.observe(labels, reply.elapsedTime / 1000);

  if (request.routeOptions.url !== undefined && isDeliveryUrl(route, assetsPrefix)) {
    const cache = reply.getHeader("x-cache");
    if (cache === "HIT") metrics.variantCache.inc({ result: "hit" });
    else if (cache === "MISS") metrics.variantCache.inc({ result: "miss" });
    const length = Number(reply.getHeader("content-length"));
    if (request.method === "GET" && reply.statusCode < 300 && length > 0) metrics.deliveredBytes.inc(length);
    return;
  }
  const uploadPath = reply.statusCode >= 400 ? uploadPathOf(request) : undefined;
  if (uploadPath) metrics.upload(uploadPath, reply.statusCode >= 500 ? "failed" : "refused");
}

export const metricsPlugin = fp(
  async (app) => {
    const { metrics: setting, assetsPrefix } = app.config;
    app.decorate("metricsServer", null as Server | null);
    // `app.metrics` is built with the other services (src/services.ts): null when off.
    const { metrics } = app;
    if (setting.expose === "off" || !metrics) return;

    app.addHook("onResponse", async (request, reply) => countResponse(metrics, assetsPrefix, request, reply));

    if (setting.expose === "api") {
      registerMetricsRoute(app, metrics.registry);
      return;
    }
    const { port, host } = setting;
    const server = createMetricsServer(metrics.registry, (error) =>
      app.log.error({ err: error }, "metrics: scrape failed"),
    );
    app.metricsServer = server;
    app.addHook("onReady", async () => listen(server, port, host));
    app.addHook("onClose", async () => {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  },
  { name: "trove-metrics", fastify: "5.x" },
);
