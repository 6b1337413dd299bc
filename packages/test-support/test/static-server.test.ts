import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StaticServer, startStaticServer } from "../src/browser/static-server.js";

/** A raw GET, so that `..` reaches the server as written (fetch would normalise it away). */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { path }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("startStaticServer", () => {
  let root: string;
  let outside: string;
  let server: StaticServer;

  beforeAll(async () => {
    outside = await mkdtemp(join(tmpdir(), "trove-static-"));
    root = join(outside, "site");
    await mkdir(root);
    await writeFile(join(root, "index.html"), "<p>home</p>");
    await writeFile(join(outside, "secret.txt"), "not for the page");
    server = await startStaticServer({
      directory: root,
      files: { "/harness.js": { body: "1", type: "text/javascript" } },
    });
  });
  afterAll(async () => {
    await server.close();
    await rm(outside, { recursive: true, force: true });
  });

  it("serves fixed files first, then the directory, with / as index.html", async () => {
    expect(await rawGet(server.url, "/harness.js")).toEqual({ status: 200, body: "1" });
    expect(await rawGet(server.url, "/")).toEqual({ status: 200, body: "<p>home</p>" });
  });

  it("never serves a file outside its directory", async () => {
    expect((await rawGet(server.url, "/../secret.txt")).status).toBe(404);
    expect((await rawGet(server.url, "/%2e%2e/secret.txt")).status).toBe(404);
  });
});
