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
  const { delivery } = app;
  const prefix = app.config.assetsPrefix.replace(/(?<!\/)\/+$/, "");

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const rawPath = (request.url.split("?", 1)[0] ?? "").slice(prefix.length);
    const target = parseDeliveryPath(rawPath);
    if (!target) throw notFound("files");
    const { workspaceNo, origin, path } = target;
    if (origin !== undefined) return delivery.origins.serve(request, reply, { workspaceNo, origin, path });
    return delivery.files.serve(request, reply, { workspaceNo, path });
  };

  app.addHook("onSend", async (_request, reply, payload) => {
    setDeliverySecurityHeaders(reply);
    return payload;
  });

  const routeOptions = { config: { auth: "none" as const, errorGroup: "files" as const } };
  for (const url of [prefix, `${prefix}/*`]) {
    app.get(url, { ...routeOptions, exposeHeadRoute: false }, handler);
    app.head(url, routeOptions, handler);
  }
};
