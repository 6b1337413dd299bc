/**
 * Delivery host routes: `GET|HEAD {assetsPrefix}/{workspace_no}/{path...}` serves a stored file
 * or a transformed variant of one (src/delivery/file-delivery.ts, variant-delivery.ts);
 * `{assetsPrefix}/{workspace_no}-{source name}/{path...}` a source's object
 * (src/delivery/origin-delivery.ts). A path that names neither is 404 `{ error: "File not found" }`.
 *
 * Every response, errors included, carries the delivery security headers (nosniff, a sandboxing
 * CSP: src/delivery/security-headers.ts), set here in `onSend`.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { parseDeliveryPath } from "../delivery/delivery-path.js";
import { setDeliverySecurityHeaders } from "../delivery/security-headers.js";
import { notFound } from "../errors/index.js";

export const deliveryRoutes: FastifyPluginAsync = async (app) => {
  const { delivery, deliveryUsage } = app;
  const prefix = app.config.assetsPrefix.replace(/(?<!\/)\/+$/, "");
  /** The workspace_no of each request that named one, for the usage counters. */
  const workspaceOf = new WeakMap<FastifyRequest, string>();
  deliveryUsage.start();

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const rawPath = (request.url.split("?", 1)[0] ?? "").slice(prefix.length);
    const target = parseDeliveryPath(rawPath);
    if (!target) throw notFound("files");
    const { workspaceNo, origin, path } = target;
    workspaceOf.set(request, workspaceNo);
    if (origin !== undefined) return delivery.origins.serve(request, reply, { workspaceNo, origin, path });
    return delivery.files.serve(request, reply, { workspaceNo, path });
  };

  app.addHook("onSend", async (_request, reply, payload) => {
    setDeliverySecurityHeaders(reply);
    return payload;
  });

  // In memory only: no database write per delivery (src/usage/delivery-usage.ts). Bytes are the
  // body's Content-Length of a successful GET; a render is a variant rendered fresh (X-Cache MISS).
  app.addHook("onResponse", async (request, reply) => {
    const workspaceNo = workspaceOf.get(request);
    if (workspaceNo === undefined || reply.statusCode >= 400) return;
    const length = Number(reply.getHeader("content-length"));
    const bytes = request.method === "GET" && reply.statusCode < 300 && length > 0 ? length : 0;
    deliveryUsage.served(workspaceNo, bytes, reply.getHeader("x-cache") === "MISS");
  });

  const routeOptions = { config: { auth: "none" as const, errorGroup: "files" as const } };
  for (const url of [prefix, `${prefix}/*`]) {
    app.get(url, { ...routeOptions, exposeHeadRoute: false }, handler);
    app.head(url, routeOptions, handler);
  }
};
