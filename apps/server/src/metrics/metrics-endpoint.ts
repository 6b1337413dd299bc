/**
 * Serving a registry's text: on the API port (`GET /metrics`, no key, outside `/api/` so no API
 * limit or workspace applies) or on a listener of its own that answers nothing else.
 */
import { createServer, type Server } from "node:http";
import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";

export const METRICS_PATH = "/metrics";

export function registerMetricsRoute(app: FastifyInstance, registry: Registry): void {
  app.get(METRICS_PATH, { config: { auth: "none" } }, async (_request, reply) => {
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
}

/** A server for `/metrics` only; every other path is 404, every other method 405. */
export function createMetricsServer(registry: Registry, onError: (error: unknown) => void): Server {
  return createServer((request, response) => {
    const path = (request.url ?? "").split("?", 1)[0];
    if (path !== METRICS_PATH) {
      response.writeHead(404, { "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify({ error: "Not Found" }));
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD", "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify({ error: "Method Not Allowed" }));
      return;
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, { "content-type": registry.contentType });
        response.end(request.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        onError(error);
        response.writeHead(500, { "content-type": "application/json; charset=utf-8" });
        response.end(JSON.stringify({ error: "Internal Server Error" }));
      },
    );
  });
}

/** Listens on `port` at `host`; resolves once bound. */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
