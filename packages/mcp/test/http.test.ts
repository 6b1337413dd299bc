// The official MCP client drives `trove-mcp --http` (Streamable HTTP) against a real trove-server
// process: every request is exactly as powerful as the credential it carries, and the transport
// checks Origin and refuses requests without a credential.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createClient } from "@trove/sdk/node";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG, PRIVATE_HTTP_TOOLS, UPLOAD_ONLY_HTTP_TOOLS } from "./support/fixtures.js";
import { callTool, httpClient, type McpHttpProcess, startMcpHttp, toolNames } from "./support/mcp-clients.js";

const ALLOWED_ORIGIN = "http://localhost:5173";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

describe("trove-mcp --http", () => {
  // Remote-URL uploads here fetch the server's own delivery URLs, on loopback.
  const server = useServerProcess({ TROVE_TRUSTED_RANGES: "127.0.0.0/8" });
  let mcp: McpHttpProcess;
  let privateClient: Client;

  beforeAll(async () => {
    mcp = await startMcpHttp(server.baseUrl, ["--allowed-origin", ALLOWED_ORIGIN]);
    privateClient = await httpClient(mcp.url, server.keys.private);
  });
  afterAll(async () => {
    await privateClient?.close();
    await mcp?.stop();
  });

  const post = (headers: Record<string, string>) =>
    fetch(mcp.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify(INITIALIZE),
    });

  it("lists tools by the credential of each request, never a path upload", async () => {
    expect(await toolNames(privateClient)).toEqual(PRIVATE_HTTP_TOOLS);
    const publicClient = await httpClient(mcp.url, server.keys.public);
    const trove = createClient({ apiKey: server.keys.private, baseUrl: server.baseUrl });
    const { token } = await trove.uploadTokens.create({ max_files: 2 });
    const tokenClient = await httpClient(mcp.url, token);
    try {
      expect(await toolNames(publicClient)).toEqual(UPLOAD_ONLY_HTTP_TOOLS);
      expect(await toolNames(tokenClient)).toEqual(UPLOAD_ONLY_HTTP_TOOLS);
    } finally {
      await Promise.all([publicClient.close(), tokenClient.close()]);
    }
  });

  it("uploads from a URL with an upload token, finds the file, and serves a transformed URL", async () => {
    const trove = createClient({ apiKey: server.keys.private, baseUrl: server.baseUrl });
    const original = await trove.upload(PNG, { fileName: "http-source.png" });
    // Remote uploads are off in a token's policy unless it says so.
    const { token } = await trove.uploadTokens.create({ allow_remote: true });
    const tokenClient = await httpClient(mcp.url, token);
    try {
      const uploaded = await callTool(tokenClient, "upload_from_url", {
        url: original.url,
        file_name: "http-copied.png",
        folder: "agents",
      });
      expect(uploaded.json).not.toHaveProperty("error");
      expect(uploaded.isError).toBe(false);
      expect(uploaded.json).toMatchObject({ path: "agents/http-copied.png" });

      const found = await callTool(privateClient, "search_files", { name: "http-copied" });
      expect(found.json.files.map((file: { file_no: string }) => file.file_no)).toEqual([
        uploaded.json.file_no,
      ]);

      const built = await callTool(tokenClient, "delivery_url", {
        url: uploaded.json.url,
        path: uploaded.json.path,
        transform: "w_1,f_webp",
      });
      expect(built.isError).toBe(false);
      const variant = await fetch(built.json.url);
      expect(variant.status).toBe(200);
      expect(variant.headers.get("content-type")).toBe("image/webp");
    } finally {
      await tokenClient.close();
    }
  });

  it("makes a signed URL for a private file", async () => {
    const trove = createClient({ apiKey: server.keys.private, baseUrl: server.baseUrl });
    const file = await trove.upload(PNG, { fileName: "http-private.png", isPrivate: true });
    const signed = await callTool(privateClient, "signed_url", {
      file_no: file.file_no,
      transform: "f_webp",
    });
    expect(signed.isError).toBe(false);
    const served = await fetch(signed.json.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
  });

  it("answers a request without a credential with 401", async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("refuses a foreign Origin with 403, and lets the allowed one and none through", async () => {
    const auth = { authorization: `Bearer ${server.keys.private}` };
    expect((await post({ ...auth, origin: "http://evil.example" })).status).toBe(403);
    // A rebound name sends itself as both Host and Origin: that is no reason to trust it.
    expect((await post({ ...auth, origin: "http://evil.example", host: "evil.example" })).status).toBe(403);
    expect((await post({ ...auth, origin: "null" })).status).toBe(403);
    expect((await post({ ...auth, origin: ALLOWED_ORIGIN })).status).toBe(200);
    expect((await post(auth)).status).toBe(200);
  });

  it("is not mounted in trove-server unless TROVE_MCP is on", async () => {
    const response = await fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.keys.private}` },
      body: JSON.stringify(INITIALIZE),
    });
    expect(response.status).toBe(404);
  });

  it("takes the credential from x-api-key too, and answers GET with 405 (stateless)", async () => {
    expect((await post({ "x-api-key": server.keys.private })).status).toBe(200);
    const get = await fetch(mcp.url, { headers: { authorization: `Bearer ${server.keys.private}` } });
    expect(get.status).toBe(405);
  });
});
