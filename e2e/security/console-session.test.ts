/**
 * The console's sessions under attack (issue #36), against a real `trove-server` process over
 * loopback, playing:
 * - a cross-site page that makes the browser send the cookie but cannot read the CSRF token:
 *   every request without it, or with a guess, is refused and changes nothing;
 * - a guesser of secrets at the sign-in: blocked after 10 failures, the right key included;
 * - someone holding a session after its key was revoked, or after sign-out, or a forged cookie
 *   (the stored hash of a real one, as a database leak would give);
 * - a visitor climbing out of the console directory with raw `..`, encoded dots and slashes;
 * - a foreign origin reading the session API through CORS.
 * And the secret never reaches the server's output. Raw paths go through node:http, which sends
 * them as written (fetch would normalise `..` away). Figures go to e2e/SECURITY.md §34.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ADMIN_TOKEN = "e2e-console-admin-token-0123456789abcdef";
const OUTSIDE_MARKER = "never-served-outside-the-console";
const INDEX_HTML = "<!doctype html><title>Trove console</title>";

interface Session {
  cookie: string;
  csrf: string;
}

/** A GET with the path exactly as written (no normalisation), over loopback. */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("console sessions under attack", () => {
  let server: ServerProcess;
  let root: string;

  const signInRaw = (secret: string) =>
    fetch(`${server.baseUrl}/console/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ secret }),
    });
  const signIn = async (secret: string): Promise<Session> => {
    const res = await signInRaw(secret);
    expect(res.status).toBe(200);
    const cookie = (res.headers.get("set-cookie") ?? "").split(";", 1)[0] as string;
    expect(cookie).toMatch(/^trove_console=[A-Za-z0-9_-]{43}$/);
    return { cookie, csrf: ((await res.json()) as { data: { csrf_token: string } }).data.csrf_token };
  };
  const api = (path: string, headers: Record<string, string>, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: init.body === undefined ? headers : { "content-type": "application/json", ...headers },
    });
  const withSession = (s: Session, path: string, init: RequestInit = {}) =>
    api(path, { cookie: s.cookie, "x-csrf-token": s.csrf }, init);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "trove-e2e-console-"));
    const dir = join(root, "dist");
    await mkdir(join(dir, "assets"), { recursive: true });
    await writeFile(join(dir, "index.html"), INDEX_HTML);
    await writeFile(join(dir, "assets", "app-1.js"), "export {};");
    await writeFile(join(dir, ".secret"), OUTSIDE_MARKER);
    await writeFile(join(root, "outside.txt"), OUTSIDE_MARKER);
    server = await startServerProcess({
      LOG_LEVEL: "debug",
      TROVE_ADMIN_TOKEN: ADMIN_TOKEN,
      TROVE_CONSOLE_DIR: dir,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it("a cross-site request carrying the cookie but not the CSRF token is refused and changes nothing", async () => {
    const s = await signIn(server.keys.private);
    const attempts = [
      api(
        "/api/v1/folders",
        { cookie: s.cookie },
        { method: "POST", body: JSON.stringify({ name: "csrf-1" }) },
      ),
      api(
        "/api/v1/folders",
        { cookie: s.cookie, "x-csrf-token": "guess" },
        { method: "POST", body: JSON.stringify({ name: "csrf-2" }) },
      ),
      api("/api/v1/files", { cookie: s.cookie, "x-csrf-token": s.csrf.toUpperCase() }),
      api("/console/api/session", { cookie: s.cookie }, { method: "DELETE" }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ success: false, errorCode: "CSRF_REJECTED" });
    }
    const folders = await api("/api/v1/folders", { "x-api-key": server.keys.private });
    expect(JSON.stringify(await folders.json())).not.toMatch(/csrf-\d/);
    // The session itself survived the forged DELETE.
    expect((await withSession(s, "/api/v1/files")).status).toBe(200);
  });

  it("a workspace session is no admin, an admin session no workspace key", async () => {
    const workspace = await signIn(server.keys.private);
    expect((await withSession(workspace, "/admin/v1/workspaces")).status).toBe(401);
    const adminSession = await signIn(ADMIN_TOKEN);
    expect((await withSession(adminSession, "/admin/v1/workspaces")).status).toBe(200);
    expect((await withSession(adminSession, "/api/v1/files")).status).toBe(401);
  });

  it("revoking the key, signing out, or a forged cookie (a leaked row's hash) leaves nothing usable", async () => {
    const probe = await signIn(server.keys.private);
    const session = await (await withSession(probe, "/console/api/session")).json();
    const keys = `/admin/v1/workspaces/${(session as { data: { workspace_no: string } }).data.workspace_no}/keys`;
    const asAdmin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const created = await api(keys, asAdmin, { method: "POST", body: JSON.stringify({ type: "private" }) });
    const { key, id } = (await created.json()) as { key: string; id: string };
    const s = await signIn(key);
    expect((await withSession(s, "/api/v1/files")).status).toBe(200);
    const revoked = await api(`${keys}/${id}`, asAdmin, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect((await withSession(s, "/api/v1/files")).status).toBe(401);

    const other = await signIn(server.keys.private);
    expect((await withSession(other, "/console/api/session", { method: "DELETE" })).status).toBe(200);
    expect((await withSession(other, "/api/v1/files")).status).toBe(401);

    const live = await signIn(server.keys.private);
    const value = live.cookie.slice("trove_console=".length);
    const leakedId = createHash("sha256").update(value).digest("hex");
    const forged = { cookie: `trove_console=${leakedId}`, csrf: live.csrf };
    expect((await withSession(forged, "/api/v1/files")).status).toBe(401);
  });

  it("no /console path climbs out of the console directory", async () => {
    const paths = [
      "/console/../outside.txt",
      "/console/../../package.json",
      "/console/%2e%2e/outside.txt",
      "/console/%2E%2E/%2E%2E/package.json",
      "/console/..%2foutside.txt",
      "/console/assets%2f..%2f..%2foutside.txt",
      "/console/assets/..%2F..%2Foutside.txt",
      "/console/..%5coutside.txt",
      "/console/..\\outside.txt",
      "/console/assets/../../outside.txt",
      "/console/.secret",
      "/console/%2esecret",
      "/console/assets/%00",
    ];
    for (const path of paths) {
      const res = await rawGet(server.baseUrl, path);
      expect(res.body, path).not.toContain(OUTSIDE_MARKER);
      expect(res.body, path).not.toContain('"name"');
      expect([400, 404], `${path} ${res.status}`).toContain(res.status);
    }
    const page = await rawGet(server.baseUrl, "/console/files/123");
    expect(page).toEqual({ status: 200, body: INDEX_HTML });
  });

  it("a foreign origin gets no CORS on the session API, and no credentials anywhere", async () => {
    const origin = "https://attacker.example";
    const preflight = await fetch(`${server.baseUrl}/console/api/session`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const s = await signIn(server.keys.private);
    const read = await api("/console/api/session", { origin, cookie: s.cookie });
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
    const files = await api("/api/v1/files", { origin, cookie: s.cookie, "x-csrf-token": s.csrf });
    expect(files.status).toBe(200);
    expect(files.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("the secrets never reach the server's output", async () => {
    const s = await signIn(server.keys.private);
    await signIn(ADMIN_TOKEN);
    const output = server.output();
    expect(output).toContain("/console/api/session");
    expect(output).not.toContain(server.keys.private);
    expect(output).not.toContain(ADMIN_TOKEN);
    expect(output).not.toContain(s.cookie.slice("trove_console=".length));
    expect(output).not.toContain(s.csrf);
  });

  // Last: it blocks this address (the suite's) for the rest of the window.
  it("a guesser is blocked after 10 failures, the right key included, with retryAfterSeconds", async () => {
    for (let i = 0; i < 10; i++)
      expect((await signInRaw(`trove_sk_guess${i}`.padEnd(41, "x"))).status).toBe(401);
    const eleventh = await signInRaw("trove_sk_guess-eleven".padEnd(41, "x"));
    expect(eleventh.status).toBe(429);
    expect(((await eleventh.json()) as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    const right = await signInRaw(server.keys.private);
    expect(right.status).toBe(429);
    expect(right.headers.get("set-cookie")).toBeNull();
  });
});
