// examples/backend-and-browser driven in real Chromium: the page, which holds no key, gets a
// one-file upload token from its backend, uploads an image straight to the server with it
// (cross-origin), then shows the list the backend fetched with the private key, thumbnail
// included. Runs with TROVE_BROWSER_TESTS=1 (see vitest.config.ts).
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BackendExample, startBackendExample } from "./support/backend-example.js";
import { launchChromium, openPage } from "./support/chromium.js";
import { gradientPng } from "./support/png.js";
import { type ServerProcess, startServerProcess } from "./support/server-process.js";

describe("examples/backend-and-browser in Chromium", () => {
  let server: ServerProcess;
  let backend: BackendExample;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServerProcess();
    backend = await startBackendExample(server);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await backend?.close();
    await server?.stop();
  });

  it("uploads from the page and shows the file in the backend's list", async () => {
    const tab = await openPage(browser);
    try {
      const { page } = tab;
      const uploadKeys: (string | undefined)[] = [];
      page.on("request", (request) => {
        if (request.url().startsWith(`${server.baseUrl}/api/v1/`))
          uploadKeys.push(request.headers()["x-api-key"]);
      });
      await page.goto(`${backend.url}/`);
      expect(await page.locator("#files li").count()).toBe(0);

      await page
        .locator("#file-input")
        .setInputFiles({ name: "from-page.png", mimeType: "image/png", buffer: gradientPng(300, 300) });

      const item = page.locator('#files li[data-name="from-page.png"]');
      await item.waitFor({ timeout: 60_000 });
      expect(await page.locator("#status").textContent()).toBe("Uploaded from-page.png");
      expect(await item.locator("a").getAttribute("href")).toMatch(/\/uploads\/[^/]+\.png$/);
      const thumb = item.locator("img");
      await page.waitForFunction(
        (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
        await thumb.elementHandle(),
      );
      expect(await thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(256);

      // The upload carried a token (the CORS preflight carries no key), never a key; the page got
      // the list from its own backend, and no key of any kind reached the browser.
      const sent = uploadKeys.filter((key) => key !== undefined);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/^trove_ut_[0-9A-Za-z]{32}$/);
      const seen = await page.evaluate(() => document.documentElement.outerHTML);
      for (const key of Object.values(server.keys)) expect(seen.includes(key)).toBe(false);
      expect(tab.foreignRequests, "the page requested something off loopback").toEqual([]);
      expect(tab.pageErrors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});
