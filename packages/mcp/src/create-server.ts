import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { mayCall } from "./credential-scope.js";
import { registerTransformGrammar } from "./resources/transform-grammar.js";
import { registerWorkspaceResources } from "./resources/workspace-resources.js";
import { ALL_TOOLS } from "./tools/all-tools.js";
import type { ToolContext, ToolEntry } from "./tools/tool-entry.js";
import { PACKAGE_VERSION } from "./version.js";

/** The tools `context`'s credential and transport get (credential-scope.ts decides by operation). */
export function offeredTools(context: ToolContext): ToolEntry[] {
  return ALL_TOOLS.filter(
    (tool) => mayCall(context.access.kind, tool.operations) && (tool.offered?.(context) ?? true),
  );
}

/** An MCP server exactly as powerful as the credential of `context.access`. */
export function createTroveMcpServer(context: ToolContext): McpServer {
  const server = new McpServer(
    { name: "trove", version: PACKAGE_VERSION },
    {
      instructions:
        "Trove stores a team's media (images, video, documents) and serves it transformed through delivery URLs. Files are named by file_no; list and search tools answer one page at a time with totals. Read trove://transform-grammar before writing a transformation.",
    },
  );
  for (const tool of offeredTools(context)) tool.register(server, context);
  registerTransformGrammar(server);
  if (context.access.workspace !== undefined) registerWorkspaceResources(server, context.access.workspace);
  return server;
}
