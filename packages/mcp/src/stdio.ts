import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createTroveMcpServer } from "./create-server.js";
import { parseRoots } from "./roots-guard.js";
import { troveAccess } from "./trove-access.js";

export class ConfigurationError extends Error {}

/**
 * `trove-mcp` over stdio, for a local assistant: the credential is TROVE_API_KEY (a key or an
 * upload token), the API TROVE_BASE_URL, and TROVE_MCP_ROOTS the folders the path upload tool
 * may read (TROVE_ASSETS_URL the delivery host, when it is not `{baseUrl}/assets`). Stdout carries the protocol; anything else goes to stderr.
 */
export async function runStdio(env: NodeJS.ProcessEnv): Promise<void> {
  const credential = env.TROVE_API_KEY?.trim();
  const baseUrl = env.TROVE_BASE_URL?.trim();
  if (!credential)
    throw new ConfigurationError("TROVE_API_KEY is not set (a trove_sk_/trove_pk_ key or an upload token)");
  if (!baseUrl)
    throw new ConfigurationError("TROVE_BASE_URL is not set (the Trove API, e.g. https://api.example.com)");
  const server = createTroveMcpServer({
    access: troveAccess({ credential, baseUrl, assetsUrl: env.TROVE_ASSETS_URL?.trim() || undefined }),
    transport: "stdio",
    roots: parseRoots(env.TROVE_MCP_ROOTS),
  });
  await server.connect(new StdioServerTransport());
}
