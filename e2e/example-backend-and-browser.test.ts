// examples/backend-and-browser against the real server: the page the backend serves carries the
// public key and never the private one, and `/api/files` lists the workspace with the private key.
// Driving the page in Chromium is example-backend-and-browser.chromium.test.ts.
import { createClient } from "@trove/sdk/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, configFromEnv } from "../examples/backend-and-browser/src/config.js";
import type { ListedFile } from "../examples/backend-and-browser/src/list-files.js";
import { type BackendExample, startBackendExample } from "./support/backend-example.js";
import { gradientPng } from "./support/png.js";
import { type ServerProcess, startServerProcess } from "./support/server-process.js";

describe("examples/backend-and-browser", () => {
  let server: ServerProcess;
  let backend: BackendExample;

  beforeAll(async () => {
    server = await startServerProcess();
    backend = await startBackendExample(server);
  });

  afterAll(async () => {
    await backend?.close();
    await server?.stop();
  });

  it("serves a page and script with the public key and never the private key", async () => {
    const html = await (await fetch(`${backend.url}/`)).text();
    expect(html).toContain(server.keys.public);
    expect(html).toContain(server.baseUrl);
    const script = await (await fetch(`${backend.url}/app.js`)).text();
    expect(script).toContain("x-api-key"); // the bundled SDK
    for (const [what, body] of [
      ["page", html],
      ["script", script],
    ] as const) {
      expect(body.includes(server.keys.private), `${what} contains the private key`).toBe(false);
      // The SDK's guard mentions the `trove_sk_` prefix; no whole private key may appear.
      expect(/trove_sk_[A-Za-z0-9]{8,}/.test(body), `${what} contains a private key`).toBe(false);
    }
  });

  it("lists uploaded files through the private key", async () => {
    const uploader = createClient({ apiKey: server.keys.public, baseUrl: server.baseUrl });
    const image = await uploader.upload(gradientPng(64, 48), { fileName: "listed.png" });
    const other = await uploader.upload(new TextEncoder().encode("hello"), { fileName: "listed.txt" });

    const response = await fetch(`${backend.url}/api/files`);
    expect(response.status).toBe(200);
    const { files, hasNext } = (await response.json()) as { files: ListedFile[]; hasNext: boolean };
    expect(hasNext).toBe(false);
    expect(files.map((file) => file.file_no).sort()).toEqual([image.file_no, other.file_no].sort());
    const created = files.map((file) => Date.parse(file.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a)); // newest first
    const png = files.find((file) => file.file_no === image.file_no);
    expect(png).toMatchObject({ name: "listed.png", url: image.url, size: image.size, format: "png" });
    expect(png?.thumbnail).toMatch(/\/w_256,h_256,c_limit,f_webp\//);
    expect(files.find((file) => file.file_no === other.file_no)?.thumbnail).toBeNull();
    expect(JSON.stringify(files)).not.toContain("trove_");
  });

  it("refuses to start with a key of the wrong kind, so the private key cannot reach the page", () => {
    const env = { TROVE_PUBLIC_KEY: server.keys.private, TROVE_PRIVATE_KEY: server.keys.private };
    expect(() => configFromEnv(env)).toThrow(ConfigError);
    expect(() => configFromEnv(env)).toThrow(/TROVE_PUBLIC_KEY must be a public key/);
    expect(() => configFromEnv({ TROVE_PUBLIC_KEY: server.keys.public })).toThrow(/TROVE_PRIVATE_KEY/);
  });

  it("answers 502 without details when Trove refuses the private key", async () => {
    const { createBackend } = await import("../examples/backend-and-browser/src/backend.js");
    const config = configFromEnv({
      TROVE_BASE_URL: server.baseUrl,
      TROVE_PUBLIC_KEY: server.keys.public,
      TROVE_PRIVATE_KEY: "trove_sk_revoked",
    });
    const app = await createBackend(config);
    try {
      const response = await app.inject({ method: "GET", url: "/api/files" });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({ error: "Could not list files from Trove", status: 401 });
    } finally {
      await app.close();
    }
  });
});
