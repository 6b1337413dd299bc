// examples/next-app built with Next's own build and served by `next start`, driven in Chromium
// against a real trove-server: the upload page gets one token per file from the App Router
// route handler (createTokenRoute) and uploads with it; the gallery, a server component listing
// with the private key, renders the files through next/image with the Trove loader, so each
// <img> asks Trove's delivery host for a width. Runs with TROVE_BROWSER_TESTS=1 and
// TROVE_NEXT_TESTS=1 (Next's build takes a while: see e2e/vitest.config.ts).
import { fileURLToPath } from "node:url";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { type Child, spawnChild } from "@trove/test-support/children";
import { freePort, waitForHttp } from "@trove/test-support/ports";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "./support/png.js";

const APP_DIR = fileURLToPath(new URL("../examples/next-app/", import.meta.url));
const NEXT_BIN = fileURLToPath(
  new URL("../examples/next-app/node_modules/next/dist/bin/next", import.meta.url),
);

/** Runs `next <args>` in the example; resolves with the child once `ready` says it is up. */
function next(args: string[], env: Record<string, string>): Child {
  return spawnChild(process.execPath, [NEXT_BIN, ...args], {
    cwd: APP_DIR,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
}

describe("examples/next-app (next build + next start) in Chromium", () => {
  const server = useServerProcess();
  let app: Child | undefined;
  let appUrl = "";

  beforeAll(async () => {
    // NEXT_PUBLIC_ variables are inlined into the pages at build time; the key is read only at run time.
    const build = next(["build"], { NEXT_PUBLIC_TROVE_ASSETS_URL: server.assetsUrl });
    await new Promise<void>((resolve) => build.process.once("exit", () => resolve()));
    if (build.process.exitCode !== 0) throw new Error(`next build failed:\n${build.output()}`);

    const port = await freePort();
    appUrl = `http://127.0.0.1:${port}`;
    app = next(["start", "--port", String(port), "--hostname", "127.0.0.1"], {
      TROVE_SECRET_KEY: server.keys.private,
      TROVE_BASE_URL: server.baseUrl,
    });
    const started = app;
    await waitForHttp(`${appUrl}/`, { alive: () => !started.exited(), describe: started.output });
  }, 600_000);

  afterAll(async () => {
    await app?.stop();
  });

  const chrome = useChromium({
    afterEachTest: (tab) =>
      expect(tab.pageErrors.filter((line) => line.startsWith("pageerror:"))).toEqual([]),
  });

  it("uploads through the token route: the page holds no key, each file gets its own token", async () => {
    const { page } = chrome.tab;
    const credentials: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(`${server.baseUrl}/`)) return;
      const headers = request.headers();
      const credential = headers["x-api-key"] ?? headers.authorization;
      if (credential) credentials.push(credential);
    });
    const tokenAnswers: unknown[] = [];
    page.on("response", async (response) => {
      if (response.url() === `${appUrl}/api/upload-token`) tokenAnswers.push(await response.json());
    });

    await page.goto(`${appUrl}/upload`);
    const html = await page.content();
    for (const key of Object.values(server.keys)) expect(html).not.toContain(key);

    const input = page.getByLabel(/Drop files here/).and(page.locator("input"));
    await input.setInputFiles([
      { name: "first.png", mimeType: "image/png", buffer: gradientPng(640, 480) },
      { name: "second.png", mimeType: "image/png", buffer: gradientPng(320, 240) },
    ]);
    await page.getByRole("status").filter({ hasText: "2 uploaded" }).waitFor({ timeout: 60_000 });

    expect(tokenAnswers).toHaveLength(2);
    expect(tokenAnswers[0]).toMatchObject({
      token: expect.stringMatching(/^trove_ut_/),
      max_files: 1,
      policy: { folder: "next-app/uploads", allowed_types: ["image/*"], max_file_size: 10 * 1024 * 1024 },
    });
    // Only upload tokens went to Trove, and not one twice.
    expect(credentials.length).toBeGreaterThan(0);
    for (const credential of credentials) expect(credential.replace(/^Bearer /, "")).toMatch(/^trove_ut_/);
    const tokens = new Set((tokenAnswers as Array<{ token: string }>).map((answer) => answer.token));
    expect(tokens.size).toBe(2);
  });

  it("shows the folder in the gallery through next/image: each <img> is a Trove URL with w_ that answers an image", async () => {
    const { page } = chrome.tab;
    await page.goto(`${appUrl}/gallery`);
    const images = page.locator(".gallery img");
    await expect.poll(() => images.count()).toBeGreaterThanOrEqual(2);
    const first = images.first();
    await page.waitForFunction(
      (el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0,
      await first.elementHandle(),
    );
    const src = await first.evaluate((el) => (el as HTMLImageElement).currentSrc);
    expect(src.startsWith(`${server.assetsUrl}/`)).toBe(true);
    expect(new URL(src).pathname).toMatch(/\/w_\d+,f_auto(,q_\d+)?\/next-app\/uploads\/[^/]+\.png$/);
    const srcset = (await first.getAttribute("srcset")) ?? "";
    expect(srcset.split(", ").length).toBeGreaterThan(1);

    const delivered = await fetch(src, { headers: { accept: "image/avif,image/webp,*/*" } });
    expect(delivered.status).toBe(200);
    expect(delivered.headers.get("content-type")).toMatch(/^image\//);

    // The private key is on the server only: the gallery's HTML has the URLs, never the key.
    const html = await page.content();
    for (const key of Object.values(server.keys)) expect(html).not.toContain(key);
  });

  it("refuses a GET of the token route with 405 and never caches its answers", async () => {
    const get = await fetch(`${appUrl}/api/upload-token`);
    expect(get.status).toBe(405);
    const post = await fetch(`${appUrl}/api/upload-token`, { method: "POST" });
    expect(post.status).toBe(200);
    expect(post.headers.get("cache-control")).toContain("no-store");
  });
});
