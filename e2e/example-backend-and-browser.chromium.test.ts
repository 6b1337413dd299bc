// examples/backend-and-browser driven in real Chromium: the page, which holds no key, gets a
// one-file upload token from its backend, uploads straight to the server with it (cross-origin),
// then shows the files of this browser's session that the backend listed with the private key.
// Each upload has its own row: progress with bytes, speed and time left, and on failure its own
// message with Retry and Remove. Runs with TROVE_BROWSER_TESTS=1 (see vitest.config.ts).

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@trove/sdk";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { openPage, throttleUploads, waitForRowState } from "@trove/test-support/browser/chromium";
import { useServerProcess } from "@trove/test-support/server-per-file";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackend } from "../examples/backend-and-browser/src/backend.js";
import { configFromEnv } from "../examples/backend-and-browser/src/config.js";
import { MAX_UPLOAD_BYTES } from "../examples/backend-and-browser/src/upload-policy.js";
import { type BackendExample, startBackendExample } from "./support/backend-example.js";
import { gradientPng } from "./support/png.js";

const CONNECTION_HINT = "the server may be down, baseUrl may be wrong, or CORS refused this origin";

describe("examples/backend-and-browser in Chromium", () => {
  const server = useServerProcess();
  let backend: BackendExample;
  let workDir: string;

  beforeAll(async () => {
    backend = await startBackendExample(server);
    workDir = await mkdtemp(join(tmpdir(), "trove-backend-example-"));
  });

  afterAll(async () => {
    await backend?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const chrome = useChromium({
    // Nothing the page does may end as an uncaught error or rejection.
    afterEachTest: (tab) =>
      expect(tab.pageErrors.filter((line) => line.startsWith("pageerror:"))).toEqual([]),
  });

  const row = (page: Page, name: string): Locator => page.locator(`li.upload[data-name="${name}"]`);

  const waitForState = (page: Page, name: string, state: string) =>
    waitForRowState(chrome.tab, row(page, name), name, state);

  const visibleButtons = (target: Locator) => target.locator("button:visible").allTextContents();
  const barFilter = (target: Locator) =>
    target.locator("progress").evaluate((el) => getComputedStyle(el).filter);

  async function waitForImage(page: Page, img: Locator): Promise<void> {
    await page.waitForFunction(
      (el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0,
      await img.elementHandle(),
    );
  }

  it("uploads from the page and lists only this browser's files, thumbnail included", async () => {
    const { page } = chrome.tab;
    const uploadKeys: (string | undefined)[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith(`${server.baseUrl}/api/v1/`))
        uploadKeys.push(request.headers()["x-api-key"]);
    });
    // Someone else's file in the same workspace: not this page's to show.
    const other = createClient({ apiKey: server.keys.public, baseUrl: server.baseUrl });
    await other.upload(gradientPng(30, 30), { fileName: "someone-else.png", folder: "uploads" });

    await page.goto(`${backend.url}/`);
    await page.locator("#file-input").setInputFiles({
      name: "from-page.png",
      mimeType: "image/png",
      buffer: gradientPng(300, 300),
    });
    const done = await waitForState(page, "from-page.png", "done");
    expect(await done.locator(".status").textContent()).toBe("uploaded");
    expect(await visibleButtons(done)).toEqual(["Remove"]);
    expect(await page.locator("#total").textContent()).toMatch(/^1 file · ([\d.]+ KiB) of \1$/);

    const item = page.locator('#files li[data-name="from-page.png"]');
    await item.waitFor({ timeout: 60_000 });
    expect(await page.locator("#files li").count()).toBe(1);
    expect(await item.locator("a").getAttribute("href")).toMatch(/\/uploads\/[0-9a-f]{32}\/[^/]+\.png$/);
    const thumb = item.locator("img");
    await waitForImage(page, thumb);
    expect(await thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(256);

    // The upload carried a token (the CORS preflight carries no key), never a key, and no key of
    // any kind reached the browser.
    const sent = uploadKeys.filter((key) => key !== undefined);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^trove_ut_[0-9A-Za-z]{32}$/);
    const seen = await page.evaluate(() => document.documentElement.outerHTML);
    for (const key of Object.values(server.keys)) expect(seen.includes(key)).toBe(false);

    // A new browser (its own session) sees none of it.
    const stranger = await openPage(chrome.browser);
    try {
      await stranger.page.goto(`${backend.url}/`);
      await stranger.page.waitForLoadState("networkidle");
      expect(await stranger.page.locator("#files li").count()).toBe(0);
      expect(await stranger.page.locator("#files-problem").isHidden()).toBe(true);
    } finally {
      await stranger.close();
    }
  });

  it("keeps each failed file's own message next to its name, with Retry and Remove and a grey bar", async () => {
    const { page } = chrome.tab;
    await page.goto(`${backend.url}/`);
    // Just over the policy's 10 MB, starting like a PNG: refused for its size, not its type.
    const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    big.set(gradientPng(4, 4));
    const bigPath = join(workDir, "huge.png");
    await writeFile(bigPath, big);
    await page
      .locator("#file-input")
      .setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") }]);
    await page.locator("#file-input").setInputFiles(bigPath);

    const notes = await waitForState(page, "notes.txt", "failed");
    const huge = await waitForState(page, "huge.png", "failed");
    expect(await notes.locator(".name").textContent()).toBe("notes.txt · 12 B");
    expect(await notes.locator(".detail").textContent()).toBe("Only images can be uploaded here");
    expect(await huge.locator(".detail").textContent()).toBe("Images up to 10 MB");
    expect(await notes.locator(".placeholder").textContent()).toBe("TXT");
    expect(await huge.locator(".placeholder").textContent()).toBe("PNG");
    for (const failed of [notes, huge]) {
      expect(await visibleButtons(failed)).toEqual(["Retry", "Remove"]);
      expect(await barFilter(failed)).toBe("grayscale(1)");
    }
    expect(await page.locator("#total").textContent()).toMatch(/^2 files · /);

    // Retry sends the file again (and it fails again, for the same reason, in the same row).
    await notes.locator('button[data-action="retry"]').click();
    await waitForState(page, "notes.txt", "failed");
    expect(await page.locator("li.upload").count()).toBe(2);

    await huge.locator('button[data-action="remove"]').click();
    expect(await huge.count()).toBe(0);
    expect(await notes.locator(".detail").textContent()).toBe("Only images can be uploaded here");
    expect(await page.locator("#total").textContent()).toMatch(/^1 file · [\d.]+ B of 12 B$/);
  });

  it("a Trove server it cannot reach is one message with the likely causes; Retry then uploads", async () => {
    const { page } = chrome.tab;
    await page.goto(`${backend.url}/`);
    await page.route(`${server.baseUrl}/**`, (route) => route.abort("connectionrefused"));
    await page
      .locator("#file-input")
      .setInputFiles({ name: "offline.png", mimeType: "image/png", buffer: gradientPng(40, 40) });
    const failed = await waitForState(page, "offline.png", "failed");
    expect(await failed.locator(".detail").textContent()).toBe(
      `Could not reach ${server.baseUrl}: ${CONNECTION_HINT}`,
    );
    expect(await barFilter(failed)).toBe("grayscale(1)");

    await page.unroute(`${server.baseUrl}/**`);
    await failed.locator('button[data-action="retry"]').click();
    await waitForState(page, "offline.png", "done");
    await page.locator('#files li[data-name="offline.png"]').waitFor();
  });

  it("shows bytes, speed and time left while uploading; Cancel leaves Retry and Remove", async () => {
    const { page } = chrome.tab;
    await page.goto(`${backend.url}/`);
    await throttleUploads(page, 1024 * 1024);
    // Over the 8 MiB multipart threshold (and under the policy's 10 MB): parts report progress as
    // they go, where Chromium's throttle delivers a single request's progress only at its end.
    const png = Buffer.concat([gradientPng(64, 64), Buffer.alloc(9.5 * 1024 * 1024)]);
    await page.locator("#file-input").setInputFiles({ name: "slow.png", mimeType: "image/png", buffer: png });
    const uploading = row(page, "slow.png");
    await page.waitForFunction(
      (el) => el instanceof Element && / left$/.test(el.querySelector(".detail")?.textContent ?? ""),
      await uploading.elementHandle(),
      { timeout: 60_000 },
    );
    expect(await uploading.locator(".detail").textContent()).toMatch(
      /^[\d.]+ (B|KiB|MiB) of 9\.5 MiB sent · [\d.]+ (B|KiB|MiB)\/s · (\d+ s|\d+ min \d+ s) left$/,
    );
    expect(await visibleButtons(uploading)).toEqual(["Cancel"]);

    await uploading.locator('button[data-action="cancel"]').click();
    const cancelled = await waitForState(page, "slow.png", "cancelled");
    expect(await visibleButtons(cancelled)).toEqual(["Retry", "Remove"]);
    expect(await barFilter(cancelled)).toBe("grayscale(1)");
    expect(await page.locator("#files li").count()).toBe(0);
  });

  it("never enlarges a small image, and shows a placeholder for a file without a thumbnail", async () => {
    const { page, context } = chrome.tab;
    await page.goto(`${backend.url}/`);
    await page
      .locator("#file-input")
      .setInputFiles({ name: "tiny.png", mimeType: "image/png", buffer: gradientPng(20, 12) });
    await waitForState(page, "tiny.png", "done");
    const thumb = page.locator('#files li[data-name="tiny.png"] img');
    await thumb.waitFor();
    await waitForImage(page, thumb);
    expect(await thumb.evaluate((img) => [img.clientWidth, img.clientHeight])).toEqual([20, 12]);

    // A file in this session's folder that has no thumbnail (put there with a key, as an admin
    // tool might): the list shows its extension instead.
    const session = (await context.cookies()).find((cookie) => cookie.name === "trove_example_session");
    const admin = createClient({ apiKey: server.keys.public, baseUrl: server.baseUrl });
    await admin.upload(new TextEncoder().encode("hello"), {
      fileName: "readme.txt",
      folder: `uploads/${session!.value}`,
    });
    await page.reload();
    const text = page.locator('#files li[data-name="readme.txt"]');
    await text.waitFor();
    expect(await text.locator(".placeholder").textContent()).toBe("TXT");
    expect(await text.locator("img").count()).toBe(0);
  });

  it("says why the list and the token failed when Trove refuses the backend's key, and throws nothing", async () => {
    const config = configFromEnv({
      TROVE_BASE_URL: server.baseUrl,
      TROVE_PRIVATE_KEY: "trove_sk_revoked",
      PORT: "0",
    });
    const refused = await createBackend(config);
    await refused.listen({ host: "127.0.0.1", port: 0 });
    try {
      const { page } = chrome.tab;
      const { port } = refused.server.address() as AddressInfo;
      await page.goto(`http://127.0.0.1:${port}/`);
      const problem = page.locator("#files-problem");
      await problem.waitFor();
      expect(await problem.textContent()).toBe("Could not load your files: Could not list files from Trove");

      await page
        .locator("#file-input")
        .setInputFiles({ name: "no-token.png", mimeType: "image/png", buffer: gradientPng(10, 10) });
      const failed = await waitForState(page, "no-token.png", "failed");
      expect(await failed.locator(".detail").textContent()).toBe(
        "No upload token: Could not get an upload token from Trove",
      );
    } finally {
      await refused.close();
    }
  });

  it("says the backend did not answer when /api/files cannot be reached", async () => {
    const { page } = chrome.tab;
    await page.route(`${backend.url}/api/files`, (route) => route.abort("connectionrefused"));
    await page.goto(`${backend.url}/`);
    const problem = page.locator("#files-problem");
    await problem.waitFor();
    expect(await problem.textContent()).toBe(
      "Could not load your files: This page's backend did not answer /api/files: is `npm start` in examples/backend-and-browser still running?",
    );
  });
});
