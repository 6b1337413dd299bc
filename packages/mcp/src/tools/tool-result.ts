import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { TroveError } from "@trove/sdk/node";

/**
 * A tool's answer: the value as JSON text. Any failure becomes a tool error (`isError: true`)
 * that carries the server's code and message, so the model can read why and try otherwise; the
 * MCP server process never sees the exception.
 */
export async function toolResult(run: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return { content: [{ type: "text", text: JSON.stringify(await run(), null, 2) }] };
  } catch (error) {
    return toolError(error);
  }
}

export function toolError(error: unknown): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify({ error: describe(error) }, null, 2) }],
  };
}

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof TroveError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.requestId === undefined ? {} : { request_id: error.requestId }),
    };
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { code: typeof code === "string" ? code : "TOOL_FAILED", message: error.message };
  }
  return { code: "TOOL_FAILED", message: String(error) };
}
