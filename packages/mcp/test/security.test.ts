// Attacker's review of trove-mcp against a real trove-server process: a model talked into
// misbehaving (or a prompt injection in a file it read) can do no more than the credential can,
// and the path upload reads nothing but regular files under TROVE_MCP_ROOTS.
import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createClient } from "@trove/sdk/node";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openUnderRoots } from "../src/roots-guard.js";
import { PNG, useTempDir, writePng } from "./support/fixtures.js";
import { callTool, stdioClient } from "./support/mcp-clients.js";

describe("trove-mcp under attack", () => {
  const server = useServerProcess();
  const tmp = useTempDir("trove-mcp-attack-");
  let root: string;
  let outside: string;
  let client: Client;
  let socket: Server;

  beforeAll(async () => {
    root = join(tmp.path, "allowed");
    outside = join(tmp.path, "allowed-evil"); // shares the root's name as a prefix
    await mkdir(join(root, "sub"), { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, "secret.txt"), "the attacker wants this");
    await writePng(join(root, "ok.png"));
    await symlink(join(outside, "secret.txt"), join(root, "link-to-secret.txt"));
    await symlink(outside, join(root, "link-to-outside"));
    await symlink("/dev/zero", join(root, "zero"));
    execFileSync("mkfifo", [join(root, "pipe")]);
    socket = createServer();
    await new Promise<void>((resolve) => socket.listen(join(root, "socket"), resolve));
    // A root given through a symlink is resolved like the files: its real folder is the root.
    await symlink(root, join(tmp.path, "root-link"));
    client = await stdioClient({
      TROVE_BASE_URL: server.baseUrl,
      TROVE_API_KEY: server.keys.private,
      TROVE_MCP_ROOTS: join(tmp.path, "root-link"),
    });
  });
  afterAll(async () => {
    await client?.close();
    await new Promise((resolve) => socket?.close(resolve));
  });

  const upload = (path: string) => callTool(client, "upload_file", { path });

  it("reads a regular file under the root, also through a symlinked root", async () => {
    const viaLink = await upload(join(tmp.path, "root-link", "ok.png"));
    expect(viaLink.isError).toBe(false);
    const direct = await upload(join(root, "ok.png"));
    expect(direct.isError).toBe(false);
  });

  it.each([
    ["`..` out of the root", () => join(root, "..", "allowed-evil", "secret.txt")],
    ["`..` through a subfolder", () => `${root}/sub/../../allowed-evil/secret.txt`],
    ["a sibling folder whose name starts with the root's", () => join(outside, "secret.txt")],
    ["a symlink out of the root", () => join(root, "link-to-secret.txt")],
    ["a path through a symlinked folder out of the root", () => join(root, "link-to-outside", "secret.txt")],
    ["a symlink to /dev/zero", () => join(root, "zero")],
    ["/dev/zero itself", () => "/dev/zero"],
    ["/etc/passwd", () => "/etc/passwd"],
    ["a relative path", () => "allowed/ok.png"],
  ])("refuses %s", async (_name, path) => {
    const answer = await upload(path());
    expect(answer.isError).toBe(true);
    expect(answer.json.error.code).toBe("PATH_NOT_ALLOWED");
  });

  it.each([
    ["a FIFO (without hanging on it)", "pipe", "a FIFO"],
    ["a directory", "sub", "a directory"],
    ["a socket", "socket", "cannot be opened"],
  ])("refuses %s inside the root", async (_name, entry, reason) => {
    const answer = await upload(join(root, entry));
    expect(answer.isError).toBe(true);
    expect(answer.json.error.code).toBe("PATH_NOT_ALLOWED");
    expect(answer.json.error.message).toContain(reason);
  });

  it("never stored what it refused", async () => {
    const found = await callTool(client, "search_files", { name: "secret" });
    expect(found.json.total).toBe(0);
  });

  it("refuses a device even under a root that contains it (fstat of the opened descriptor)", async () => {
    await expect(openUnderRoots("/dev/zero", ["/dev"])).rejects.toThrow(/not a regular file \(a device\)/);
    await expect(openUnderRoots("/dev/null", ["/dev"])).rejects.toThrow(/a device/);
  });

  it("never reaches a file of another workspace: every tool answers not found, and the file stays", async () => {
    const other = createClient({ apiKey: server.keys.private2, baseUrl: server.baseUrl });
    const theirs = await other.upload(PNG, { fileName: "other-workspace.png", isPrivate: true });
    const fileNo = theirs.file_no;
    for (const [tool, args] of [
      ["get_file", { file_no: fileNo }],
      ["signed_url", { file_no: fileNo }],
      ["delivery_url", { file_no: fileNo, transform: "w_1" }],
      ["rename_file", { file_no: fileNo, name: "stolen" }],
      ["delete_file", { file_no: fileNo }],
    ] as const) {
      const answer = await callTool(client, tool, args);
      expect(answer.isError, tool).toBe(true);
      expect(answer.json.error.status, tool).toBe(404);
    }
    const searched = await callTool(client, "search_files", { name: "other-workspace" });
    expect(searched.json.total).toBe(0);
    const still = await other.files.get(fileNo);
    expect(still.name).toBe("other-workspace.png");
  });
});
