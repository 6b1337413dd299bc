// Smoke test of examples/react-upload as its README builds it (`vite build` with the `VITE_*`
// variables, the static site served from loopback) in real Chromium against the real server: one
// image chosen in <TroveUploader> is uploaded with the public key, stored byte-exact, and shown in
// the gallery from the delivery host; a file dropped anywhere on the page is previewed and
// uploaded; the dialog variant opens, uploads and gives focus back. The components themselves are tested in depth by
// react-uploader.browser.test.ts. Runs with TROVE_BROWSER_TESTS=1.
import { fileURLToPath } from "node:url";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { startExampleSite } from "@trove/test-support/browser/example-site";
import type { StaticServer } from "@trove/test-support/browser/static-server";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient } from "./support/admin-client.js";
import { axeViolations } from "./support/axe.js";
import { digestOf, downloadSha256 } from "./support/page-assertions.js";
import { dragFilesOver, dropDraggedFiles } from "./support/page-transfer.js";
import { gradientPng } from "./support/png.js";

const EXAMPLE = fileURLToPath(new URL("../examples/react-upload", import.meta.url));

describe("examples/react-upload in Chromium", () => {
  const server = useServerProcess();
  let site: StaticServer;

  beforeAll(async () => {
    site = await startExampleSite(EXAMPLE, server);
  });
  afterAll(async () => {
    await site?.close();
  });

  const chrome = useChromium({
    startAt: () => `${site.url}/`,
    afterEachTest: (tab) => expect(tab.pageErrors).toEqual([]),
  });

  it("uploads a chosen image into its folder and shows it in the gallery", async () => {
    const { tab } = chrome;
    const { page } = tab;
    const png = gradientPng(480, 360);
    // The inline uploader's input (the dialog's uploader is mounted too, closed).
    await page
      .locator("main > .trove-uploader .trove-uploader__zone input")
      .setInputFiles({ name: "example.png", mimeType: "image/png", buffer: png });
    await page
      .locator('li.trove-upload[data-name="example.png"][data-state="done"]')
      .waitFor({ timeout: 60_000 })
      .catch((error: unknown) => {
        throw new Error(`the upload never finished\n${tab.pageErrors.join("\n")}`, { cause: error });
      });

    const admin = adminClient(server);
    const { files } = await admin.files.list({ name: "example" });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ name: "example.png", file_size: png.length, width: 480, height: 360 });
    // The page's `options={{ folder: "react-example" }}` reached the server.
    expect((await admin.files.get(files[0]!.file_no)).folder?.name).toBe("react-example");
    expect(await downloadSha256(files[0]!.url)).toEqual(digestOf(png));

    // The gallery's <TroveImage> is loaded by the page from the delivery host.
    const image = page.getByRole("region", { name: "Gallery" }).getByRole("img", { name: "example.png" });
    expect(await image.getAttribute("src")).toContain(server.assetsUrl);
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
      await image.elementHandle(),
    );
  });

  it("takes a file dropped anywhere on the page, previews it in its row and uploads it", async () => {
    const { page } = chrome.tab;
    const png = gradientPng(200, 100);
    await dragFilesOver(page, "h1", [{ name: "dropped.png", mimeType: "image/png", buffer: png }]);
    await page.locator(".trove-uploader__overlay").waitFor();
    await dropDraggedFiles(page, "h1");
    const row = page.locator('main > .trove-uploader li.trove-upload[data-name="dropped.png"]');
    expect(await row.locator(".trove-upload__preview img").getAttribute("src")).toMatch(/^blob:/);
    await row.and(page.locator('[data-state="done"]')).waitFor({ timeout: 60_000 });
    const { files } = await adminClient(server).files.list({ name: "dropped" });
    expect(await downloadSha256(files[0]!.url)).toEqual(digestOf(png));
    expect(await axeViolations(page, { impacts: ["serious", "critical"] })).toEqual([]);
  });

  it("opens the dialog variant, crops an image to 1:1 there, uploads it on Upload, and closes on Escape with focus back on its button", async () => {
    const { page } = chrome.tab;
    const opener = page.getByRole("button", { name: "Upload in a dialog" });
    await opener.click();
    const dialog = page.getByRole("dialog", { name: "Upload files" });
    await dialog.waitFor();
    await dialog
      .locator(".trove-uploader__zone input")
      .setInputFiles({ name: "dialog.png", mimeType: "image/png", buffer: gradientPng(400, 200) });
    // With the editor on, the file waits for Upload: there is time to edit it.
    const row = dialog.locator('li.trove-upload[data-name="dialog.png"]');
    await row.getByRole("button", { name: "Edit dialog.png" }).click();
    const editor = page.getByRole("dialog", { name: "Edit image" });
    await editor.getByRole("button", { name: "1:1" }).click();
    await editor.getByRole("button", { name: "Apply" }).click();
    await editor.waitFor({ state: "hidden" });
    await dialog.getByRole("button", { name: "Upload 1 file" }).click();
    await dialog
      .locator('li.trove-upload[data-name="dialog.png"][data-state="done"]')
      .waitFor({ timeout: 60_000 });
    expect(await axeViolations(page, { impacts: ["serious", "critical"] })).toEqual([]);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Upload in a dialog");
    // The gallery shows what the dialog uploaded: the crop, square, as the server measured it.
    await page.getByRole("region", { name: "Gallery" }).getByRole("img", { name: "dialog.png" }).waitFor();
    const { files } = await adminClient(server).files.list({ name: "dialog" });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ width: 200, height: 200 });
  });
});
