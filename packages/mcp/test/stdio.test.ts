// The official MCP client drives `trove-mcp` over stdio, as a local assistant does, against a real
// trove-server process: tools by credential, a path upload, search, transformed and signed URLs,
// errors as tool errors.
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createClient } from "@trove/sdk/node";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG, PRIVATE_HTTP_TOOLS, UPLOAD_ONLY_HTTP_TOOLS, useTempDir, writePng } from "./support/fixtures.js";
import { callTool, stdioClient, toolNames } from "./support/mcp-clients.js";

describe("trove-mcp over stdio", () => {
  const server = useServerProcess();
  const roots = useTempDir("trove-mcp-roots-");
  let privateClient: Client;
  let publicClient: Client;

  beforeAll(async () => {
    const env = { TROVE_BASE_URL: server.baseUrl, TROVE_MCP_ROOTS: roots.path };
    [privateClient, publicClient] = await Promise.all([
      stdioClient({ ...env, TROVE_API_KEY: server.keys.private }),
      stdioClient({ ...env, TROVE_API_KEY: server.keys.public }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([privateClient?.close(), publicClient?.close()]);
  });

  it("offers a private key every tool, the path upload among them, and marks what destroys", async () => {
    expect(await toolNames(privateClient)).toEqual([...PRIVATE_HTTP_TOOLS, "upload_file"].sort());
    const { tools } = await privateClient.listTools();
    const annotations = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(annotations.delete_file?.destructiveHint).toBe(true);
    expect(annotations.rename_file?.destructiveHint).toBe(true);
    expect(annotations.list_files?.readOnlyHint).toBe(true);
    expect(annotations.search_files?.readOnlyHint).toBe(true);
    expect(annotations.upload_file?.readOnlyHint).toBe(false);
  });

  it("offers a public key the upload tools and the URL builder only", async () => {
    expect(await toolNames(publicClient)).toEqual([...UPLOAD_ONLY_HTTP_TOOLS, "upload_file"].sort());
  });

  it("does not offer the path upload without TROVE_MCP_ROOTS", async () => {
    const client = await stdioClient({ TROVE_BASE_URL: server.baseUrl, TROVE_API_KEY: server.keys.private });
    try {
      expect(await toolNames(client)).toEqual(PRIVATE_HTTP_TOOLS);
    } finally {
      await client.close();
    }
  });

  it("uploads a local file, finds it by search, and serves a transformed URL from the delivery host", async () => {
    const path = await writePng(join(roots.path, "mcp-stdio-hero.png"));
    const uploaded = await callTool(privateClient, "upload_file", {
      path,
      folder: "mcp",
      tags: ["mcp-stdio"],
    });
    expect(uploaded.isError).toBe(false);
    expect(uploaded.json).toMatchObject({ name: "mcp-stdio-hero.png", path: "mcp/mcp-stdio-hero.png" });

    const found = await callTool(privateClient, "search_files", { name: "stdio-hero", limit: 5 });
    expect(found.isError).toBe(false);
    expect(found.json.total).toBe(1);
    expect(found.json.files[0].file_no).toBe(uploaded.json.file_no);
    const byTag = await callTool(privateClient, "search_files", { tags: ["mcp-stdio"] });
    expect(byTag.json.files.map((file: { file_no: string }) => file.file_no)).toEqual([
      uploaded.json.file_no,
    ]);

    const built = await callTool(privateClient, "delivery_url", {
      file_no: uploaded.json.file_no,
      transform: "w_1,f_webp",
    });
    expect(built.isError).toBe(false);
    expect(built.json.url).toBe(uploaded.json.url.replace("/mcp/", "/w_1,f_webp/mcp/"));
    const variant = await fetch(built.json.url);
    expect(variant.status).toBe(200);
    expect(variant.headers.get("content-type")).toBe("image/webp");
  });

  it("gives the public key's upload a URL it can transform without any request", async () => {
    const path = await writePng(join(roots.path, "mcp-public.png"));
    const uploaded = await callTool(publicClient, "upload_file", { path });
    expect(uploaded.isError).toBe(false);
    const built = await callTool(publicClient, "delivery_url", {
      url: uploaded.json.url,
      transform: "w_1,f_png",
    });
    expect(built.isError).toBe(false);
    expect((await fetch(built.json.url)).headers.get("content-type")).toBe("image/png");
  });

  it("makes a signed URL for a private file, whose plain URL stays a 404", async () => {
    const path = await writePng(join(roots.path, "mcp-contract.png"));
    const uploaded = await callTool(privateClient, "upload_file", { path, private: true });
    expect(uploaded.json.is_private).toBe(true);
    const signed = await callTool(privateClient, "signed_url", {
      file_no: uploaded.json.file_no,
      transform: "w_1",
      expires_in: 300,
    });
    expect(signed.isError).toBe(false);
    expect((await fetch(signed.json.url)).status).toBe(200);
    expect((await fetch(signed.json.url.split("?")[0])).status).toBe(404);
    const plain = await callTool(privateClient, "delivery_url", {
      file_no: uploaded.json.file_no,
      transform: "w_1",
    });
    expect(plain.isError).toBe(true);
    expect(plain.json.error.message).toMatch(/signed_url/);
  });

  it("refuses a delete with a public key: the tool is not offered, and calling it anyway is an error", async () => {
    const trove = createClient({ apiKey: server.keys.private, baseUrl: server.baseUrl });
    const file = await trove.upload(PNG, { fileName: "keep-me.png" });
    const answer = await publicClient
      .callTool({ name: "delete_file", arguments: { file_no: file.file_no } })
      .then((result) => ({ isError: result.isError === true, text: JSON.stringify(result.content) }))
      .catch((error: Error) => ({ isError: true, text: error.message }));
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/delete_file/);
    expect((await trove.files.get(file.file_no)).file_no).toBe(file.file_no);
  });

  it("answers the server's refusals as tool errors with its code, and keeps serving", async () => {
    const missing = await callTool(privateClient, "get_file", { file_no: "999999999" });
    expect(missing.isError).toBe(true);
    expect(missing.json.error).toMatchObject({ status: 404 });
    expect(typeof missing.json.error.code).toBe("string");

    const badTransform = await callTool(privateClient, "delivery_url", {
      url: `${server.assetsUrl}/ws/a.png`,
      transform: "q_200",
    });
    expect(badTransform.isError).toBe(true);
    expect(badTransform.json.error).toMatchObject({ code: "INVALID_TRANSFORM" });
    expect(badTransform.json.error.message).toMatch(/q_200: quality must be 1..100/);

    const badUpload = await callTool(privateClient, "upload_file", {
      path: join(roots.path, "mcp-stdio-hero.png"),
      transform: "w_0",
    });
    expect(badUpload.isError).toBe(true);
    expect(badUpload.json.error.code).toBe("INVALID_TRANSFORM");
    // Still alive after all that.
    expect((await callTool(privateClient, "list_files", { limit: 1 })).isError).toBe(false);
  });

  it("pages lists with totals instead of dumping them", async () => {
    const page = await callTool(privateClient, "list_files", { limit: 1, page: 1 });
    expect(page.json.files).toHaveLength(1);
    expect(page.json.total).toBeGreaterThan(1);
    expect(page.json.has_more).toBe(true);
    const tooBig = await privateClient
      .callTool({ name: "list_files", arguments: { limit: 10_000 } })
      .then((result) => result.isError === true)
      .catch(() => true);
    expect(tooBig).toBe(true);
  });

  it("creates and lists folders, and lists sources", async () => {
    const created = await callTool(privateClient, "create_folder", { name: "mcp-made" });
    expect(created.isError).toBe(false);
    const folders = await callTool(privateClient, "list_folders", { name: "mcp-made" });
    expect(folders.json.folders.map((folder: { folder_no: string }) => folder.folder_no)).toEqual([
      created.json.folder_no,
    ]);
    expect(folders.json).toMatchObject({ total: 1, has_more: false });
    const sources = await callTool(privateClient, "list_sources", {});
    expect(sources.isError).toBe(false);
    expect(sources.json).toMatchObject({ sources: [], total: 0 });
  });

  it("serves the grammar reference to every credential and the workspace resources to a private key", async () => {
    const publicResources = (await publicClient.listResources()).resources.map((resource) => resource.uri);
    expect(publicResources).toEqual(["trove://transform-grammar"]);
    const grammar = await publicClient.readResource({ uri: "trove://transform-grammar" });
    const text = grammar.contents[0] && "text" in grammar.contents[0] ? grammar.contents[0].text : "";
    expect(text).toContain("`c` | `fill`, `fit`, `limit`, `scale`, `pad`, `crop`");

    const privateResources = (await privateClient.listResources()).resources.map((resource) => resource.uri);
    expect(privateResources.sort()).toEqual([
      "trove://files/recent",
      "trove://folders",
      "trove://transform-grammar",
    ]);
    const recent = await privateClient.readResource({ uri: "trove://files/recent" });
    const body = JSON.parse(
      recent.contents[0] && "text" in recent.contents[0] ? String(recent.contents[0].text) : "{}",
    );
    expect(body.total).toBeGreaterThan(0);
  });
});
