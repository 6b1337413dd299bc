// trove-server with TROVE_MCP=on serves the MCP endpoint at /mcp through the optional @trove/mcp:
// the same tools, scoped by each request's own credential, with the API reached over loopback.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createClient } from "@trove/sdk/node";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG, PRIVATE_HTTP_TOOLS, UPLOAD_ONLY_HTTP_TOOLS } from "./support/fixtures.js";
import { callTool, httpClient, toolNames } from "./support/mcp-clients.js";

const PAGE_ORIGIN = "http://localhost:5173";

describe("trove-server's /mcp mount", () => {
  const server = useServerProcess({ TROVE_MCP: "on", TROVE_CORS_ORIGINS: PAGE_ORIGIN });
  let client: Client;
  const mcpUrl = () => `${server.baseUrl}/mcp`;

  beforeAll(async () => {
    client = await httpClient(mcpUrl(), server.keys.private);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("offers each credential its own tools", async () => {
    expect(await toolNames(client)).toEqual(PRIVATE_HTTP_TOOLS);
    const publicClient = await httpClient(mcpUrl(), server.keys.public);
    try {
      expect(await toolNames(publicClient)).toEqual(UPLOAD_ONLY_HTTP_TOOLS);
    } finally {
      await publicClient.close();
    }
  });

  it("finds an uploaded file and builds its transformed URL on the server's own delivery host", async () => {
    const trove = createClient({ apiKey: server.keys.private, baseUrl: server.baseUrl });
    const file = await trove.upload(PNG, { fileName: "mounted-mcp.png", folder: "mounted" });
    const found = await callTool(client, "search_files", { name: "mounted-mcp" });
    expect(found.json.files.map((row: { file_no: string }) => row.file_no)).toEqual([file.file_no]);
    const built = await callTool(client, "delivery_url", { file_no: file.file_no, transform: "f_webp" });
    expect(built.json.url.startsWith(`${server.assetsUrl}/`)).toBe(true);
    expect(built.json.url.endsWith("/f_webp/mounted/mounted-mcp.png")).toBe(true);
    expect((await fetch(built.json.url)).headers.get("content-type")).toBe("image/webp");
  });

  it("answers 401 without a credential and 403 to an origin TROVE_CORS_ORIGINS does not list", async () => {
    const initialize = (headers: Record<string, string>) =>
      fetch(mcpUrl(), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "raw", version: "0" },
          },
        }),
      });
    expect((await initialize({})).status).toBe(401);
    const auth = { authorization: `Bearer ${server.keys.private}` };
    expect((await initialize({ ...auth, origin: "http://evil.example" })).status).toBe(403);
    expect((await initialize({ ...auth, origin: PAGE_ORIGIN })).status).toBe(200);
  });
});
