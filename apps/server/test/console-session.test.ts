// The console's sessions and pages (issue #36, src/console/), through inject: sign-in, the cookie
// standing for its key or the admin token with its CSRF header, the ways a session ends, the
// throttle on failed sign-ins, /console serving with its headers, and CORS staying credential-free.
// e2e/security/console-session.test.ts plays the same attacker against a real process.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { consoleContentSecurityPolicy } from "../src/console/console-headers.js";
import { CONSOLE_NOT_BUILT_MESSAGE, consoleBannerLine } from "../src/console/console-pages.js";
import { CONSOLE_KEY_KIND_MESSAGE } from "../src/console/session-routes.js";
import { SIGN_IN_FAILURES_MAX } from "../src/console/sign-in-throttle.js";
import { startupBanner } from "../src/server.js";
import { ADMIN_TOKEN, admin, createAdminTestApp } from "./admin-support.js";
import { captureLogs, createTestApp, type TestApp } from "./support/index.js";

const SESSION = "/console/api/session";
const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/console/assets/app-1a2b3c.js"></script></head><body><div id="root"></div></body></html>';
const ASSET_JS = "console.log('trove console');";
/** A file next to the console directory: no /console URL may ever serve it. */
const OUTSIDE_MARKER = "outside-the-console-directory";

interface SignedIn {
  cookie: string;
  csrf: string;
  data: Record<string, unknown>;
  setCookie: string;
}

/** `name=value` of the response's trove_console cookie, and the whole Set-Cookie header. */
function sessionCookieOf(res: LightMyRequestResponse): { cookie: string; setCookie: string } {
  const header = res.headers["set-cookie"];
  const setCookie = (Array.isArray(header) ? header : [header ?? ""]).find((c) =>
    c.startsWith("trove_console="),
  );
  if (!setCookie) throw new Error(`no trove_console cookie in ${JSON.stringify(header)}`);
  return { cookie: setCookie.split(";", 1)[0] as string, setCookie };
}

async function signIn(
  app: FastifyInstance,
  secret: string,
  extra: Partial<InjectOptions> = {},
): Promise<SignedIn> {
  const res = await app.inject({ method: "POST", url: SESSION, payload: { secret }, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  return { ...sessionCookieOf(res), csrf: body.data.csrf_token, data: body.data };
}

const asSession = (app: FastifyInstance, s: SignedIn, url: string, options: Partial<InjectOptions> = {}) =>
  app.inject({
    method: "GET",
    url,
    ...options,
    headers: { cookie: s.cookie, "x-csrf-token": s.csrf, ...options.headers },
  });

async function consoleFixture(): Promise<{ root: string; dir: string }> {
  const root = await mkdtemp(join(tmpdir(), "trove-console-"));
  const dir = join(root, "dist");
  await mkdir(join(dir, "assets"), { recursive: true });
  await writeFile(join(dir, "index.html"), INDEX_HTML);
  await writeFile(join(dir, "assets", "app-1a2b3c.js"), ASSET_JS);
  await writeFile(join(dir, ".env"), OUTSIDE_MARKER);
  await writeFile(join(root, "outside.txt"), OUTSIDE_MARKER);
  await writeFile(join(root, "package.json"), `{"name":"${OUTSIDE_MARKER}"}`);
  return { root, dir };
}

describe("console sessions", () => {
  let t: TestApp;
  let fixture: { root: string; dir: string };
  const logs = captureLogs();

  beforeAll(async () => {
    fixture = await consoleFixture();
    t = await createAdminTestApp({
      config: { console: { dir: fixture.dir } },
      logger: { stream: logs.stream, level: "trace" },
    });
  });
  afterAll(async () => {
    await t?.close();
    await rm(fixture.root, { recursive: true, force: true });
  });

  it("signs in with a private key: an HttpOnly, SameSite=Strict, Path=/ cookie (not Secure over http), the session's data, and the secret nowhere", async () => {
    const res = await t.app.inject({ method: "POST", url: SESSION, payload: { secret: t.keys.private } });
    expect(res.statusCode, res.body).toBe(200);
    const { cookie, setCookie } = sessionCookieOf(res);
    const attributes = setCookie.split(";").map((part) => part.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(["httponly", "samesite=strict", "path=/"]));
    expect(attributes).not.toContain("secure");
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json();
    expect(body).toEqual({
      success: true,
      data: {
        kind: "workspace",
        workspace_no: t.workspace.workspaceNo,
        workspace_name: t.workspace.name,
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        idle_timeout_seconds: 1800,
      },
    });
    expect(res.body).not.toContain(t.keys.private);
    // The row keeps neither the cookie nor the key: only the cookie's hash and the key's id.
    const rows = await t.app.db.consoleSession.findMany();
    const cookieValue = cookie.slice("trove_console=".length);
    expect(JSON.stringify(rows)).not.toContain(cookieValue);
    expect(JSON.stringify(rows)).not.toContain(t.keys.private);

    const again = await t.app.inject({ method: "GET", url: SESSION, headers: { cookie } });
    expect(again.json()).toEqual(body);
    // Signing in again from the same browser replaces that session.
    const replaced = await signIn(t.app, t.keys.private, { headers: { cookie } });
    expect(replaced.cookie).not.toBe(cookie);
    expect((await t.app.inject({ method: "GET", url: SESSION, headers: { cookie } })).statusCode).toBe(401);
    expect(logs.text()).not.toContain(t.keys.private);
    expect(logs.text()).not.toContain(cookieValue);
  });

  it("sets Secure when the request came over https through a trusted proxy, and only then", async () => {
    const proxied = await createTestApp({ config: { trustProxy: 1 } });
    try {
      const https = await signIn(proxied.app, proxied.keys.private, {
        headers: { "x-forwarded-proto": "https" },
      });
      expect(https.setCookie.toLowerCase()).toMatch(/;\s*secure(;|$)/);
      const http = await signIn(proxied.app, proxied.keys.private);
      expect(http.setCookie.toLowerCase()).not.toContain("secure");
    } finally {
      await proxied.close();
    }
    // Not trusted (TROVE_TRUST_PROXY unset): the header is anybody's word.
    const spoofed = await signIn(t.app, t.keys.private, { headers: { "x-forwarded-proto": "https" } });
    expect(spoofed.setCookie.toLowerCase()).not.toContain("secure");
  });

  it("acts as its key with the CSRF header, and is refused with 403 CSRF_REJECTED without it or with a wrong one, on GET and POST", async () => {
    const s = await signIn(t.app, t.keys.private);
    const withSession = await asSession(t.app, s, "/api/v1/files");
    const withKey = await t.app.inject({
      method: "GET",
      url: "/api/v1/files",
      headers: { "x-api-key": t.keys.private },
    });
    expect(withSession.statusCode, withSession.body).toBe(200);
    expect(withSession.json()).toEqual(withKey.json());

    const created = await asSession(t.app, s, "/api/v1/folders", {
      method: "POST",
      payload: { name: "from-console" },
    });
    expect(created.statusCode, created.body).toBe(200);

    const refusals = [
      await t.app.inject({ method: "GET", url: "/api/v1/files", headers: { cookie: s.cookie } }),
      await asSession(t.app, s, "/api/v1/files", { headers: { "x-csrf-token": `${s.csrf.slice(1)}x` } }),
      await t.app.inject({
        method: "POST",
        url: "/api/v1/folders",
        headers: { cookie: s.cookie },
        payload: { name: "csrf" },
      }),
      await asSession(t.app, s, "/api/v1/folders", {
        method: "POST",
        headers: { "x-csrf-token": "" },
        payload: { name: "csrf" },
      }),
    ];
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ success: false, error: "Forbidden", errorCode: "CSRF_REJECTED" });
    }
    const folders = await t.app.db.folder.findMany({ where: { name: "csrf" } });
    expect(folders).toEqual([]);
  });

  it("keeps the kinds apart: a workspace session on /admin/v1 and an admin session on /api/v1 are 401; an admin session works on /admin/v1", async () => {
    const workspace = await signIn(t.app, t.keys.private);
    expect((await asSession(t.app, workspace, "/admin/v1/workspaces")).statusCode).toBe(401);

    const adminSession = await signIn(t.app, ADMIN_TOKEN);
    expect(adminSession.data).toEqual({
      kind: "admin",
      csrf_token: adminSession.csrf,
      idle_timeout_seconds: 1800,
    });
    const listed = await asSession(t.app, adminSession, "/admin/v1/workspaces");
    expect(listed.statusCode, listed.body).toBe(200);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: "/admin/v1/workspaces",
          headers: { cookie: adminSession.cookie },
        })
      ).json(),
    ).toMatchObject({ errorCode: "CSRF_REJECTED" });
    expect((await asSession(t.app, adminSession, "/api/v1/files")).statusCode).toBe(401);
    expect(logs.text()).not.toContain(ADMIN_TOKEN);
  });

  it("ends admin sessions when the admin token changes (an instance started with another one)", async () => {
    const adminSession = await signIn(t.app, ADMIN_TOKEN);
    const rotated = await buildApp({
      config: { ...t.config, seedDev: false, adminToken: `${ADMIN_TOKEN}-rotated` },
      database: t.app.database,
      closeDatabase: false,
      migrate: false,
      logger: false,
    });
    try {
      expect((await asSession(rotated, adminSession, "/admin/v1/workspaces")).statusCode).toBe(401);
      expect((await asSession(t.app, adminSession, "/admin/v1/workspaces")).statusCode).toBe(200);
    } finally {
      await rotated.close();
    }
  });

  it("ends a workspace session on the next request once its key is revoked through the admin API", async () => {
    const base = `/admin/v1/workspaces/${t.workspace.workspaceNo}/keys`;
    const { key, id } = (await admin(t, "POST", base, { type: "private" })).json();
    const s = await signIn(t.app, key);
    expect((await asSession(t.app, s, "/api/v1/files")).statusCode).toBe(200);
    expect((await admin(t, "DELETE", `${base}/${id}`)).statusCode).toBe(200);
    expect((await asSession(t.app, s, "/api/v1/files")).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "GET", url: SESSION, headers: { cookie: s.cookie } })).statusCode,
    ).toBe(401);
  });

  it("DELETE ends the session on every instance: the old cookie is 401 here and on a second app over the same database", async () => {
    const second = await buildApp({
      config: { ...t.config, seedDev: false },
      database: t.app.database,
      closeDatabase: false,
      migrate: false,
      logger: false,
    });
    try {
      const s = await signIn(t.app, t.keys.private);
      expect((await asSession(second, s, "/api/v1/files")).statusCode).toBe(200);
      const noCsrf = await t.app.inject({ method: "DELETE", url: SESSION, headers: { cookie: s.cookie } });
      expect(noCsrf.json()).toMatchObject({ errorCode: "CSRF_REJECTED" });
      const out = await asSession(t.app, s, SESSION, { method: "DELETE" });
      expect(out.statusCode, out.body).toBe(200);
      expect(String(out.headers["set-cookie"])).toMatch(/^trove_console=;/);
      expect((await asSession(t.app, s, "/api/v1/files")).statusCode).toBe(401);
      expect((await asSession(second, s, "/api/v1/files")).statusCode).toBe(401);
      expect(
        (await second.inject({ method: "GET", url: SESSION, headers: { cookie: s.cookie } })).statusCode,
      ).toBe(401);
    } finally {
      await second.close();
    }
  });

  it("ends a session idle past TROVE_CONSOLE_IDLE_SECONDS or past its 12 hours, and slides the idle timeout on use", async () => {
    const idle = await signIn(t.app, t.keys.private);
    const idleId = (await t.app.db.consoleSession.findFirstOrThrow({ orderBy: { createdAt: "desc" } })).id;
    // Used two minutes ago: this request slides it.
    await t.app.db.consoleSession.update({
      where: { id: idleId },
      data: { lastSeenAt: new Date(Date.now() - 120_000) },
    });
    expect((await asSession(t.app, idle, "/api/v1/files")).statusCode).toBe(200);
    const slid = await t.app.db.consoleSession.findUniqueOrThrow({ where: { id: idleId } });
    expect(slid.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // Unused for longer than the idle timeout (1800 s): over, and its row gone.
    await t.app.db.consoleSession.update({
      where: { id: idleId },
      data: { lastSeenAt: new Date(Date.now() - 1801_000) },
    });
    expect((await asSession(t.app, idle, "/api/v1/files")).statusCode).toBe(401);
    expect(await t.app.db.consoleSession.findUnique({ where: { id: idleId } })).toBeNull();

    const old = await signIn(t.app, t.keys.private);
    await t.app.db.consoleSession.updateMany({
      where: { lastSeenAt: { gt: new Date(Date.now() - 60_000) } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await asSession(t.app, old, "/api/v1/files")).statusCode).toBe(401);
  });

  it("ends sessions after a tiny TROVE_CONSOLE_IDLE_SECONDS", async () => {
    const short = await createTestApp({ config: { console: { idleSeconds: 1 } } });
    try {
      const s = await signIn(short.app, short.keys.private);
      expect(s.data.idle_timeout_seconds).toBe(1);
      await short.app.db.consoleSession.updateMany({ data: { lastSeenAt: new Date(Date.now() - 1000) } });
      expect((await asSession(short.app, s, "/api/v1/files")).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });

  it("refuses public keys and upload tokens with what the console takes, and anything else with 401", async () => {
    const minted = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads/tokens",
      headers: { "x-api-key": t.keys.private },
      payload: {},
    });
    const refusedKinds = [t.keys.public, minted.json().token as string];
    for (const secret of refusedKinds) {
      const res = await t.app.inject({
        method: "POST",
        url: SESSION,
        payload: { secret },
        remoteAddress: "10.0.0.7",
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        success: false,
        error: "Unauthorized",
        errorCode: "UNAUTHORIZED",
        message: CONSOLE_KEY_KIND_MESSAGE,
      });
      expect(res.headers["set-cookie"]).toBeUndefined();
      expect(res.body).not.toContain(secret);
    }
    const wrong = await t.app.inject({
      method: "POST",
      url: SESSION,
      payload: { secret: "trove_sk_wrongwrongwrongwrongwrongwrong" },
      remoteAddress: "10.0.0.7",
    });
    expect(wrong.json()).toMatchObject({ success: false, errorCode: "UNAUTHORIZED" });
    const malformed = await t.app.inject({ method: "POST", url: SESSION, payload: { secret: 42 } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ success: false, errorCode: "VALIDATION_FAILED" });
    // A cross-site form can post text/plain that reads as JSON: it signs nobody in (login CSRF).
    const form = await t.app.inject({
      method: "POST",
      url: SESSION,
      headers: { "content-type": "text/plain" },
      payload: JSON.stringify({ secret: t.keys.private }),
    });
    expect(form.statusCode).toBe(400);
    expect(form.headers["set-cookie"]).toBeUndefined();
  });

  it("answers 429 with retryAfterSeconds after 10 failed sign-ins from one address, without checking the next guess; other addresses are unaffected", async () => {
    const from = (secret: string, remoteAddress: string) =>
      t.app.inject({ method: "POST", url: SESSION, payload: { secret }, remoteAddress });
    for (let i = 0; i < SIGN_IN_FAILURES_MAX; i++) {
      expect((await from(`not-a-secret-${i}-padding-padding`, "10.1.2.3")).statusCode).toBe(401);
    }
    const eleventh = await from("not-a-secret-11-padding-padding", "10.1.2.3");
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json()).toMatchObject({ retryAfterSeconds: expect.any(Number) });
    expect(eleventh.json().retryAfterSeconds).toBeGreaterThan(0);
    // Blocked: even the right key gets no session from there.
    const right = await from(t.keys.private, "10.1.2.3");
    expect(right.statusCode).toBe(429);
    expect(right.headers["set-cookie"]).toBeUndefined();
    expect((await from(t.keys.private, "10.1.2.4")).statusCode).toBe(200);
  });

  it("counts the session API against the per-address budget, so made-up cookies cost their sender", async () => {
    const limited = await createTestApp({ config: { rateLimit: { addressMax: 3 } } });
    try {
      const read = (n: number) =>
        limited.app.inject({
          method: "GET",
          url: SESSION,
          headers: { cookie: `trove_console=made-up-${n}` },
        });
      for (let n = 0; n < 3; n++) expect((await read(n)).statusCode).toBe(401);
      const over = await read(3);
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ retryAfterSeconds: expect.any(Number) });
    } finally {
      await limited.close();
    }
  });

  describe("/console", () => {
    const get = (url: string, app: FastifyInstance = t.app) => app.inject({ method: "GET", url });
    const expectConsoleHeaders = (res: LightMyRequestResponse, csp: string) => {
      expect(res.headers["content-security-policy"]).toBe(csp);
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
    };

    it("serves index.html with every header of the contract, and the app's routes as index.html", async () => {
      const csp =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";
      for (const url of ["/console", "/console/", "/console/files/123", "/console/settings"]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toBe(INDEX_HTML);
        expect(res.headers["content-type"], url).toMatch(/^text\/html/);
        expect(res.headers["cache-control"], url).toBe("no-store");
        expectConsoleHeaders(res, csp);
      }
    });

    it("names a delivery host on another origin in img-src, media-src and connect-src", async () => {
      expect(
        consoleContentSecurityPolicy({
          publicUrl: "https://api.example.com",
          assetsUrl: "https://cdn.example.com/assets",
        }),
      ).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https://cdn.example.com; media-src 'self' blob: https://cdn.example.com; connect-src 'self' https://cdn.example.com; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
      );
    });

    it("serves hashed assets for a year, immutable, and a missing file with an extension as 404", async () => {
      const asset = await get("/console/assets/app-1a2b3c.js");
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe(ASSET_JS);
      expect(asset.headers["content-type"]).toMatch(/javascript/);
      expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(asset.headers["x-content-type-options"]).toBe("nosniff");
      const missing = await get("/console/assets/nothing.js");
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ success: false, errorCode: "NOT_FOUND" });
      expect((await get("/console/api/other")).statusCode).toBe(404);
    });

    it("never serves a file outside the directory, nor a dotfile", async () => {
      const attempts = [
        "/console/../package.json",
        "/console/../outside.txt",
        "/console/%2e%2e/outside.txt",
        "/console/%2E%2E/package.json",
        "/console/..%2foutside.txt",
        "/console/..%2Foutside.txt",
        "/console/assets%2f..%2f..%2foutside.txt",
        "/console/assets/..%2f..%2foutside.txt",
        "/console/..%5coutside.txt",
        "/console/..\\outside.txt",
        "/console/assets/../../outside.txt",
        "/console//outside.txt",
        "/console/.env",
        "/console/%2eenv",
        "/console/assets/%00.js",
        "/console/%E0%A4%A",
      ];
      for (const url of attempts) {
        const res = await get(url);
        expect(res.body, url).not.toContain(OUTSIDE_MARKER);
        expect([400, 404], `${url} ${res.statusCode}`).toContain(res.statusCode);
      }
    });

    it("answers 404 everywhere under /console when TROVE_CONSOLE=off, where a cookie then authenticates nothing", async () => {
      const off = await createTestApp({ config: { console: { enabled: false, dir: fixture.dir } } });
      try {
        const s = await signIn(t.app, t.keys.private);
        for (const url of ["/console", "/console/files/1", "/console/assets/app-1a2b3c.js", SESSION]) {
          expect((await get(url, off.app)).statusCode, url).toBe(404);
        }
        const signInOff = await off.app.inject({
          method: "POST",
          url: SESSION,
          payload: { secret: off.keys.private },
        });
        expect(signInOff.statusCode).toBe(404);
        // A session row copied over still means nothing there.
        const row = await t.app.db.consoleSession.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
        const key = await off.app.db.apiKey.findFirstOrThrow({
          where: { type: "private", workspaceId: off.workspace.id },
        });
        await off.app.db.consoleSession.create({ data: { ...row, apiKeyId: key.id } });
        expect((await asSession(off.app, s, "/api/v1/files")).statusCode).toBe(401);
        expect(consoleBannerLine(off.config)).toBe("  Console: off (TROVE_CONSOLE=off)");
      } finally {
        await off.close();
      }
    });

    it("answers the not-built 404 without index.html, and the banner says so", async () => {
      const empty = await mkdtemp(join(tmpdir(), "trove-console-empty-"));
      const unbuilt = await createTestApp({ config: { console: { dir: empty } } });
      try {
        for (const url of ["/console", "/console/files/123"]) {
          const res = await get(url, unbuilt.app);
          expect(res.statusCode).toBe(404);
          expect(res.json()).toEqual({
            success: false,
            error: "Not Found",
            errorCode: "NOT_FOUND",
            message: CONSOLE_NOT_BUILT_MESSAGE,
          });
        }
        expect(consoleBannerLine(unbuilt.config)).toBe(
          `  Console: ${unbuilt.config.publicUrl}/console (${CONSOLE_NOT_BUILT_MESSAGE})`,
        );
        expect(consoleBannerLine(t.config)).toBe(`  Console: ${t.config.publicUrl}/console`);
        expect(startupBanner(t.config, t.config.publicUrl, undefined)).toContain(consoleBannerLine(t.config));
      } finally {
        await unbuilt.close();
        await rm(empty, { recursive: true, force: true });
      }
    });
  });

  describe("CORS", () => {
    it("never allows credentials on a cookie-authenticated request, and the session endpoints answer no CORS headers", async () => {
      const s = await signIn(t.app, t.keys.private);
      const origin = "https://evil.example";
      const files = await asSession(t.app, s, "/api/v1/files", { headers: { origin } });
      expect(files.statusCode).toBe(200);
      expect(files.headers["access-control-allow-credentials"]).toBeUndefined();

      const responses = [
        await t.app.inject({
          method: "POST",
          url: SESSION,
          payload: { secret: t.keys.private },
          headers: { origin },
        }),
        await t.app.inject({ method: "GET", url: SESSION, headers: { origin, cookie: s.cookie } }),
        await t.app.inject({
          method: "OPTIONS",
          url: SESSION,
          headers: {
            origin,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
          },
        }),
        await t.app.inject({ method: "GET", url: "/console", headers: { origin } }),
      ];
      for (const res of responses) {
        const cors = Object.keys(res.headers).filter((name) => name.startsWith("access-control-"));
        expect(cors, res.raw.req.url).toEqual([]);
      }
    });
  });
});
