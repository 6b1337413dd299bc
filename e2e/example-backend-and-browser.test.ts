// examples/backend-and-browser against the real server: the page the backend serves carries no key
// at all, `/api/upload-token` mints one-file upload tokens bound to the page's policy (images up to
// 10 MB into the browser session's own folder, uploads/<session>), and `/api/files` lists that
// folder, and only that, with the private key. Driving the page in Chromium is
// example-backend-and-browser.chromium.test.ts.
import { createClient, createUploadClient, TroveError } from "@trove/sdk/node";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, configFromEnv } from "../examples/backend-and-browser/src/config.js";
import type { ListedFile } from "../examples/backend-and-browser/src/list-files.js";
import { MAX_UPLOAD_BYTES } from "../examples/backend-and-browser/src/upload-policy.js";
import { type BackendExample, startBackendExample } from "./support/backend-example.js";
import { gradientPng } from "./support/png.js";

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

  /** A browser's session, as the page gets it: the cookie the backend sets on `GET /`. */
  const newSession = async () => {
    const cookie = (await fetch(`${backend.url}/`)).headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^trove_example_session=[0-9a-f]{32}; Path=\/; HttpOnly; SameSite=Strict$/);
    const pair = cookie.split(";")[0]!;
    return { cookie: pair, id: pair.split("=")[1]! };
  };

  const mintToken = async (cookie?: string) => {
    const response = await fetch(`${backend.url}/api/upload-token`, {
      method: "POST",
      headers: cookie ? { cookie } : {},
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    return response.text();
  };

  const listFor = async (cookie: string) => {
    const response = await fetch(`${backend.url}/api/files`, { headers: { cookie } });
    expect(response.status).toBe(200);
    return (await response.json()) as { files: ListedFile[]; hasNext: boolean };
  };

  /** An upload client as the page makes it: a new token from the backend for every upload. */
  const pageClient = (cookie?: string) =>
    createUploadClient({ token: () => mintToken(cookie), baseUrl: server.baseUrl });

  it("serves a page and script with no key at all", async () => {
    const html = await (await fetch(`${backend.url}/`)).text();
    expect(html).toContain(server.baseUrl);
    const script = await (await fetch(`${backend.url}/app.js`)).text();
    expect(script).toContain("x-api-key"); // the bundled SDK
    expect(script).toContain("/api/upload-token");
    for (const [what, body] of [
      ["page", html],
      ["script", script],
    ] as const) {
      for (const key of Object.values(server.keys)) {
        expect(body.includes(key), `${what} contains a key`).toBe(false);
      }
      // The SDK's guard mentions the `trove_sk_` and `trove_pk_` prefixes; no whole key may appear.
      expect(/trove_[sp]k_[A-Za-z0-9]{8,}/.test(body), `${what} contains a key`).toBe(false);
    }
  });

  it("mints a one-file upload token that uploads one image into the session's folder and no more", async () => {
    const session = await newSession();
    const token = await mintToken(session.cookie);
    expect(token).toMatch(/^trove_ut_[0-9A-Za-z]{32}$/);
    const client = createUploadClient({ token, baseUrl: server.baseUrl });
    // The upload names no folder: the policy's exact folder is where it lands.
    const image = await client.upload(gradientPng(32, 32), { fileName: "token.png" });
    expect(image.path).toMatch(new RegExp(`^uploads/${session.id}/[^/]+\\.png$`));
    const again = await client.upload(gradientPng(16, 16), { fileName: "again.png" }).catch((error) => error);
    expect(again).toBeInstanceOf(TroveError);
    expect(again).toMatchObject({ code: "TOKEN_EXHAUSTED" });
  });

  it("each upload from the page's client gets its own token; the policy refuses what it does not allow", async () => {
    const client = pageClient();
    const first = await client.upload(gradientPng(20, 20), { fileName: "one.png" });
    const second = await client.upload(gradientPng(24, 24), { fileName: "two.png" });
    expect(second.file_no).not.toBe(first.file_no);

    const text = await client
      .upload(new TextEncoder().encode("not an image"), { fileName: "note.txt", contentType: "text/plain" })
      .catch((error) => error);
    expect(text).toMatchObject({ code: "TYPE_NOT_ALLOWED" });

    const folder = await client
      .upload(gradientPng(8, 8), { fileName: "elsewhere.png", folder: "private" })
      .catch((error) => error);
    expect(folder).toMatchObject({ code: "FOLDER_NOT_ALLOWED" });

    // Refused by the policy before anything is fetched (the URL is loopback: nothing leaves the host).
    const remote = await client.uploadFromUrl("http://127.0.0.1:1/a.png").catch((error) => error);
    expect(remote).toMatchObject({ code: "REMOTE_NOT_ALLOWED" });

    // Just over 10 MB starting like a PNG: sent in parts (over the 8 MiB threshold), refused by size.
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big.set(gradientPng(4, 4));
    const tooBig = await client.upload(big, { fileName: "big.png" }).catch((error) => error);
    expect(tooBig).toMatchObject({ code: "FILE_TOO_LARGE" });
  });

  it("lists only the files of the asking browser's session, through the private key", async () => {
    const mine = await newSession();
    const theirs = await newSession();
    expect(theirs.id).not.toBe(mine.id);
    const image = await pageClient(mine.cookie).upload(gradientPng(64, 48), { fileName: "listed.png" });
    const second = await pageClient(mine.cookie).upload(gradientPng(8, 8), { fileName: "second.png" });
    const other = await pageClient(theirs.cookie).upload(gradientPng(9, 9), { fileName: "theirs.png" });
    // Files the session's tokens could not have stored: elsewhere in the workspace, and one that
    // a private-key tool put into the session's folder (not an image, so it has no thumbnail).
    const uploader = createClient({ apiKey: server.keys.public, baseUrl: server.baseUrl });
    const elsewhere = await uploader.upload(gradientPng(7, 7), { fileName: "root.png", folder: "uploads" });
    const text = await uploader.upload(new TextEncoder().encode("hello"), {
      fileName: "listed.txt",
      folder: `uploads/${mine.id}`,
    });

    const { files, hasNext } = await listFor(mine.cookie);
    expect(hasNext).toBe(false);
    expect(files.map((file) => file.file_no)).toEqual([text.file_no, second.file_no, image.file_no]);
    expect(files.map((file) => file.file_no)).not.toContain(elsewhere.file_no);
    const png = files.find((file) => file.file_no === image.file_no);
    expect(png).toMatchObject({ name: "listed.png", url: image.url, size: image.size, format: "png" });
    expect(png?.thumbnail).toMatch(/\/w_256,h_256,c_limit,f_webp\//);
    expect(files.find((file) => file.file_no === text.file_no)?.thumbnail).toBeNull();
    expect(JSON.stringify(files)).not.toContain("trove_");

    expect((await listFor(theirs.cookie)).files.map((file) => file.file_no)).toEqual([other.file_no]);
  });

  it("gives a browser without a session (or with a forged one) a new, empty one", async () => {
    const attempts: Record<string, string>[] = [{}, { cookie: "trove_example_session=../../etc" }];
    for (const headers of attempts) {
      const response = await fetch(`${backend.url}/api/files`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get("set-cookie")).toMatch(/^trove_example_session=[0-9a-f]{32};/);
      expect(await response.json()).toEqual({ files: [], hasNext: false });
    }
  });

  it("refuses to start without a private key", () => {
    const env = { TROVE_PRIVATE_KEY: server.keys.public };
    expect(() => configFromEnv(env)).toThrow(ConfigError);
    expect(() => configFromEnv(env)).toThrow(/TROVE_PRIVATE_KEY must be a private key/);
    expect(() => configFromEnv({})).toThrow(/TROVE_PRIVATE_KEY/);
  });

  it("answers 502 without details when Trove refuses the private key", async () => {
    const { createBackend } = await import("../examples/backend-and-browser/src/backend.js");
    const config = configFromEnv({ TROVE_BASE_URL: server.baseUrl, TROVE_PRIVATE_KEY: "trove_sk_revoked" });
    const app = await createBackend(config);
    try {
      const files = await app.inject({ method: "GET", url: "/api/files" });
      expect(files.statusCode).toBe(502);
      expect(files.json()).toEqual({ error: "Could not list files from Trove", status: 401 });
      const token = await app.inject({ method: "POST", url: "/api/upload-token" });
      expect(token.statusCode).toBe(502);
      expect(token.json()).toEqual({ error: "Could not get an upload token from Trove", status: 401 });
      expect(token.body).not.toContain("trove_");
    } finally {
      await app.close();
    }
  });
});
