/**
 * Serving the console at `/console` (TROVE_CONSOLE=on): files of `config.console.dir`, and for any
 * path that names no file and has no extension, `index.html` (the app's client-side routes, e.g.
 * `/console/files/123`). Every answer carries the console's headers (./console-headers.ts):
 * `Cache-Control: no-store` except on `/console/assets/*`, hashed build output cached for a year.
 * Paths that could reach outside the directory are refused with 404 (./console-path.ts), and the
 * file is sent by @fastify/static (dotfiles denied) from the directory as root. Unknown paths
 * under `/console/api/` are 404, never the page. Without `index.html` in the directory every page
 * answers 404 saying how to build the console.
 */
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { ServerConfig } from "../config.js";
import { HttpError } from "../errors/http-error.js";
import { consoleContentSecurityPolicy, IMMUTABLE_CACHE, setConsoleHeaders } from "./console-headers.js";
import { consolePathOf } from "./console-path.js";
import { CONSOLE_ROUTE_CONFIG } from "./console-route-config.js";

export const CONSOLE_NOT_BUILT_MESSAGE = "The console is not built: run pnpm --filter @trove/console build";
const NOT_FOUND_MESSAGE = "Not found";

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Whether `dir` holds a built console. */
export function consoleIsBuilt(dir: string | undefined): Promise<boolean> {
  return dir === undefined ? Promise.resolve(false) : isFile(join(dir, "index.html"));
}

export const consolePages: FastifyPluginAsync = async (app) => {
  const dir = app.config.console.dir;
  const csp = consoleContentSecurityPolicy(app.config);
  await app.register(fastifyStatic, { serve: false });

  const sendIndex = (reply: FastifyReply) =>
    reply.sendFile("index.html", dir as string, { cacheControl: false, dotfiles: "deny", index: false });

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    setConsoleHeaders(reply, csp);
    if (!(await consoleIsBuilt(dir))) throw new HttpError(404, CONSOLE_NOT_BUILT_MESSAGE);
    const path = consolePathOf(request.raw.url ?? "", dir as string);
    if (path.kind === "refused") throw new HttpError(404, NOT_FOUND_MESSAGE);
    if (path.kind === "root") return sendIndex(reply);
    if (path.file.startsWith("api/")) throw new HttpError(404, NOT_FOUND_MESSAGE);
    if (await isFile(join(dir as string, path.file))) {
      if (path.file.startsWith("assets/")) reply.header("cache-control", IMMUTABLE_CACHE);
      return reply.sendFile(path.file, dir as string, {
        cacheControl: false,
        dotfiles: "deny",
        index: false,
      });
    }
    if (path.hasExtension) throw new HttpError(404, NOT_FOUND_MESSAGE);
    return sendIndex(reply);
  };

  app.get("/console", { config: CONSOLE_ROUTE_CONFIG }, page);
  app.get("/console/*", { config: CONSOLE_ROUTE_CONFIG }, page);
};

/** The start banner's line (src/server.ts): where the console is, or why it is not there. */
export function consoleBannerLine(config: Pick<ServerConfig, "console" | "publicUrl">): string {
  if (!config.console.enabled) return "  Console: off (TROVE_CONSOLE=off)";
  const url = `${config.publicUrl}/console`;
  const dir = config.console.dir;
  const built = dir !== undefined && existsSync(join(dir, "index.html"));
  return built ? `  Console: ${url}` : `  Console: ${url} (${CONSOLE_NOT_BUILT_MESSAGE})`;
}
