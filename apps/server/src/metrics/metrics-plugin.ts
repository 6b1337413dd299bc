/**
 * `metrics` plugin: decorates `app.metrics` (a TroveMetrics, or null when TROVE_METRICS is off, so
 * code that counts writes `app.metrics?.…` and costs nothing when off) and serves the scrape.
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
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { isDeliveryUrl } from "../delivery/security-headers.js";
import { createMetricsServer, listen, registerMetricsRoute } from "./metrics-endpoint.js";
import { routeLabel, uploadPathOf } from "./request-labels.js";
import { sharedReading } from "./shared-reading.js";
import { type MetricsSources, TroveMetrics } from "./trove-metrics.js";

/** Job states worth a gauge: succeeded ones only pile up until retention removes them. */
const JOB_STATES_SHOWN = ["pending", "running", "failed"] as const;

/** How long scrapes share one reading of the database gauges (./shared-reading.ts). */
export const DATABASE_GAUGES_TTL_MS = 5_000;

function sourcesOf(app: FastifyInstance): MetricsSources {
  return {
    renderLoad: () => app.renderGate.load,
    dbPool: () => app.database.poolStats?.(),
    openMultipartSessions: sharedReading(
      () => app.db.multipartSession.count({ where: { status: { in: ["pending", "completing"] } } }),
      DATABASE_GAUGES_TTL_MS,
    ),
    jobCounts: sharedReading(async () => {
      const groups = await app.db.job.groupBy({
        by: ["kind", "status"],
        where: { status: { in: [...JOB_STATES_SHOWN] } },
        _count: { _all: true },
      });
      return groups.map((group) => ({ kind: group.kind, status: group.status, count: group._count._all }));
    }, DATABASE_GAUGES_TTL_MS),
    onSourceError: (error) => app.log.warn({ err: error }, "metrics: a gauge could not be read"),
  };
}

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
    if (setting.expose === "off") {
      app.decorate("metrics", null);
      return;
    }
    const metrics = new TroveMetrics(sourcesOf(app));
    app.decorate("metrics", metrics);

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
