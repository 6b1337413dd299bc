/**
 * The console (issue #36) in two registrations, see src/app.ts:
 *
 * - `consoleSessionsPlugin`, before the auth plugin: cookie support (@fastify/cookie, parsing
 *   only when asked, so other requests pay nothing) and `app.consoleSessions`
 *   (./console-sessions.ts), which the auth hook asks about requests without a key;
 * - `consoleRoutes`, with the other routes: the session API (./session-routes.ts) and the pages
 *   (./console-pages.ts), only while TROVE_CONSOLE is on; off, every /console path is an
 *   unknown route (404) and cookies authenticate nothing.
 *
 * No /console path answers CORS: its preflights get a 404 here instead of the cors plugin's
 * catch-all OPTIONS route, and its routes opt out of the cors hook (`config.cors: false`).
 */
import fastifyCookie from "@fastify/cookie";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { consolePages } from "./console-pages.js";
import { CONSOLE_ROUTE_CONFIG } from "./console-route-config.js";
import { type ConsoleSessions, createConsoleSessions } from "./console-sessions.js";
import { consoleSessionRoutes } from "./session-routes.js";

declare module "fastify" {
  interface FastifyInstance {
    /** What a `trove_console` cookie stands for (src/console/console-sessions.ts). */
    consoleSessions: ConsoleSessions;
  }
}

export const consoleSessionsPlugin = fp(
  async (app) => {
    await app.register(fastifyCookie, { hook: false });
    app.decorate(
      "consoleSessions",
      createConsoleSessions({ db: app.db, config: app.config, parseCookie: app.parseCookie }),
    );
  },
  { name: "trove-console-sessions", fastify: "5.x", dependencies: ["trove-db"] },
);

export const consoleRoutes: FastifyPluginAsync = async (app) => {
  if (!app.config.console.enabled) return;
  await app.register(consoleSessionRoutes);
  await app.register(consolePages);
  const noPreflight = (_request: FastifyRequest, reply: FastifyReply) => reply.callNotFound();
  app.options("/console", { config: CONSOLE_ROUTE_CONFIG }, noPreflight);
  app.options("/console/*", { config: CONSOLE_ROUTE_CONFIG }, noPreflight);
};
