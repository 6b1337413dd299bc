// examples/backend-and-browser driven in real Chromium: the page uploads an image straight to the
// server with the public key (cross-origin), then shows the list the backend fetched with the
// private key, thumbnail included. Runs with TROVE_BROWSER_TESTS=1 (see vitest.config.ts).
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
      await page.goto(`${backend.url}/`);
      expect(await page.locator("#files li").count()).toBe(0);

      await page
        .locator("#file-input")
        .setInputFiles({ name: "from-page.png", mimeType: "image/png", buffer: gradientPng(300, 300) });

      const item = page.locator('#files li[data-name="from-page.png"]');
      await item.waitFor({ timeout: 60_000 });
      expect(await page.locator("#status").textContent()).toBe("Uploaded from-page.png");
      const thumb = item.locator("img");
      await page.waitForFunction(
        (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
        await thumb.elementHandle(),
      );
      expect(await thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(256);

      // The page got the list from its own backend; the private key never reached the browser.
      const seen = await page.evaluate(() => document.documentElement.outerHTML);
      expect(seen.includes(server.keys.private)).toBe(false);
      expect(tab.foreignRequests, "the page requested something off loopback").toEqual([]);
      expect(tab.pageErrors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});
