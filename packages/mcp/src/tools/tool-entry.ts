import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { NodeUploadInput, TroveClient } from "@trove/sdk/node";
import type { OperationId } from "../credential-scope.js";
import type { TroveAccess } from "../trove-access.js";

export type TransportKind = "stdio" | "http";

/** What decides which tools a server offers, and what they run with. */
export interface ToolContext {
  access: TroveAccess;
  transport: TransportKind;
  /** TROVE_MCP_ROOTS, for the path upload tool (stdio only). */
  roots: readonly string[];
}

/**
 * A tool and the API operations it calls: it is offered only to a credential that may call all
 * of them (credential-scope.ts), and only where `offered` (if any) says so.
 */
export interface ToolEntry {
  name: string;
  operations: readonly OperationId[];
  offered?(context: ToolContext): boolean;
  register(server: McpServer, context: ToolContext): void;
}

/** The private key's client, for tools whose operations only a private key may call. */
export function workspaceClient(context: ToolContext): TroveClient<NodeUploadInput> {
  const client = context.access.workspace;
  // Unreachable: such tools are offered to private keys only, which always have the client.
  if (client === undefined) throw new Error("this tool needs a private key");
  return client;
}
