/**
 * The official MCP SDK's Client driving the real `trove-mcp`: over stdio (the bin from source, in
 * a child process, as an MCP host starts it) or over Streamable HTTP (`trove-mcp --http` in a
 * child process on a free loopback port).
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Child, spawnChild } from "@trove/test-support/children";
import { freePort } from "@trove/test-support/ports";

const BIN = fileURLToPath(new URL("../../src/bin.ts", import.meta.url));
// `--import tsx` resolves from the working directory: test-support has tsx as a dependency.
const TSX_DIR = fileURLToPath(new URL("../../../test-support", import.meta.url));
/** Source first (the workspace packages' `dev-source` condition), TypeScript through tsx. */
const NODE_ARGS = ["--conditions=dev-source", "--import", "tsx", BIN];

/** Only what a child needs from our environment: no TROVE_* setting of the machine leaks in. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "SystemRoot"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export async function stdioClient(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: NODE_ARGS,
    cwd: TSX_DIR,
    env: { ...baseEnv(), ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "trove-mcp-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

export interface McpHttpProcess {
  url: string;
  child: Child;
  stop(): Promise<void>;
}

export async function startMcpHttp(baseUrl: string, extraArgs: string[] = []): Promise<McpHttpProcess> {
  const port = await freePort();
  const child = spawnChild(process.execPath, [...NODE_ARGS, "--http", "--port", String(port), ...extraArgs], {
    cwd: TSX_DIR,
    env: { ...baseEnv(), TROVE_BASE_URL: baseUrl },
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitForListening(child);
  return { url, child, stop: () => child.stop(10_000) };
}

export async function httpClient(url: string, credential: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${credential}` } },
  });
  const client = new Client({ name: "trove-mcp-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

export interface ToolAnswer {
  isError: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: a tool's JSON answer, read field by field in tests
  json: any;
}

/** Calls a tool and reads its JSON text answer. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { isError: result.isError === true, json };
}

/** Until the bin says it listens (it prints that once the socket is bound), or exits. */
async function waitForListening(child: Child): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!child.output().includes("trove-mcp listening on")) {
    if (child.exited() || Date.now() > deadline)
      throw new Error(`trove-mcp --http did not start:\n${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
