/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, served by the optional package
 * `@trove/mcp` when TROVE_MCP is `on`. @trove/server does not depend on it (an optional peer):
 * it is imported here, only then, and a server without it refuses to start with that setting
 * rather than serve a route that cannot work.
 *
 * The MCP server is a client of this API like any other: every request carries its caller's own
 * key or upload token (`Authorization: Bearer`), which the tools send to this server's own
 * address over loopback, where the API authenticates, scopes and rate-limits them as usual. The
 * route itself needs no key (`auth: "none"`); the handler answers 401 without one. Browser
 * origins allowed are TROVE_CORS_ORIGINS when it lists origins; `*` allows none here, since MCP
 * asks servers to refuse unknown origins.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";

/** What the mount uses of `@trove/mcp/http` (typed here: the package is optional). */
interface McpHttpModule {
  createMcpHttpHandler(options: {
    baseUrl: string | (() => string);
    assetsUrl?: string;
    allowedOrigins?: readonly string[];
  }): (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>;
}

// A variable, not a literal: neither TypeScript nor the bundler may resolve an optional package.
const MCP_HTTP_MODULE: string = "@trove/mcp/http";

export const MCP_PATH = "/mcp";

export const mcpMountPlugin: FastifyPluginAsync = async (app) => {
  const { config } = app;
  let mcp: McpHttpModule;
  try {
    mcp = (await import(MCP_HTTP_MODULE)) as McpHttpModule;
  } catch (error) {
    throw new Error("TROVE_MCP=on needs the package @trove/mcp installed beside @trove/server", {
      cause: error,
    });
  }
  const handle = mcp.createMcpHttpHandler({
    baseUrl: () => loopbackUrl(app),
    assetsUrl: config.assetsUrl,
    allowedOrigins: Array.isArray(config.corsOrigins) ? config.corsOrigins : [],
  });
  app.route({
    method: ["GET", "POST", "DELETE"],
    url: MCP_PATH,
    config: { auth: "none" },
    handler: async (request, reply) => {
      // The transport writes the raw response itself (JSON or an event stream).
      reply.hijack();
      await handle(request.raw, reply.raw, request.body);
    },
  });
};

/** This server's own address, as the tools' API calls reach it without leaving the machine. */
function loopbackUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo | null;
  if (address === null || typeof address !== "object") throw new Error("the server is not listening");
  const host =
    address.address === "0.0.0.0" || address.address === "::"
      ? "127.0.0.1"
      : address.family === "IPv6"
        ? `[${address.address}]`
        : address.address;
  return `http://${host}:${address.port}`;
}
