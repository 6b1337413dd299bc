// `@trove/mcp/http`: the Streamable HTTP transport as a Node request handler, for `trove-mcp
// --http` and for trove-server's optional `/mcp` mount.
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createTroveMcpServer } from "./create-server.js";
import { originAllowed } from "./origin-check.js";
import { requestCredential } from "./request-credential.js";
import { troveAccess } from "./trove-access.js";

export { originAllowed, parseOrigins } from "./origin-check.js";

export interface McpHttpOptions {
  /** The Trove API the tools call, e.g. `https://api.example.com` (the server's own, when mounted). */
  baseUrl: string | (() => string);
  /** The delivery host; default `{baseUrl}/assets`, as trove-server's default. */
  assetsUrl?: string;
  /** Browser origins allowed to call (exact `scheme://host[:port]`); requests without Origin always pass. */
  allowedOrigins?: readonly string[];
  /** A fetch for the API calls instead of the global one. */
  fetch?: typeof fetch;
}

/** Handles one HTTP request to the MCP endpoint; `parsedBody` when a framework has read the body already. */
export type McpHttpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody?: unknown,
) => Promise<void>;

/**
 * Stateless: every POST builds a server for the credential it carries and is answered with JSON;
 * no session outlives its request, so one caller's credential never serves another's. GET (the
 * optional server-to-client stream) and DELETE (ending a session) have nothing to act on: 405.
 */
export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const allowed = options.allowedOrigins ?? [];
  return async (req, res, parsedBody) => {
    const origin = req.headers.origin;
    if (!originAllowed(typeof origin === "string" ? origin : undefined, allowed)) {
      return reply(res, 403, "Forbidden: this Origin may not call the MCP endpoint");
    }
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      return reply(res, 405, "Method not allowed: this MCP endpoint is stateless, POST only");
    }
    const credential = requestCredential(req);
    if (credential === undefined) {
      res.setHeader("www-authenticate", 'Bearer realm="trove"');
      return reply(res, 401, "Unauthorized: send Authorization: Bearer <Trove key or upload token>");
    }
    const baseUrl = typeof options.baseUrl === "function" ? options.baseUrl() : options.baseUrl;
    const server = createTroveMcpServer({
      access: troveAccess({ credential, baseUrl, assetsUrl: options.assetsUrl, fetch: options.fetch }),
      transport: "http",
      roots: [],
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, parsedBody);
    } catch {
      if (!res.headersSent) reply(res, 500, "Internal error");
      else res.end();
    }
  };
}

/** An error in JSON-RPC's shape, which MCP clients read. */
function reply(res: ServerResponse, status: number, message: string): void {
  res.statusCode = status;
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}
