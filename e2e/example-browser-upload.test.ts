// examples/browser-upload, built with its own Vite and driven in real Chromium against the real
// server: a file chosen in the input is uploaded with the public key, its row reaches 100%, the
// server lists it (private key), and the thumbnail comes from the delivery host (the chosen image
// is shown from a blob: URL until then). Files dropped on the page or pasted are uploaded, a link
// is fetched by the server. The buttons pause, resume and cancel a multipart upload. Runs with TROVE_BROWSER_TESTS=1.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { throttleUploads, waitForRowState } from "@trove/test-support/browser/chromium";
import { startExampleSite } from "@trove/test-support/browser/example-site";
import { type StaticServer, startStaticServer } from "@trove/test-support/browser/static-server";
import { useServerProcess } from "@trove/test-support/server-per-file";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient } from "./support/admin-client.js";
import { digestOf, downloadSha256 } from "./support/page-assertions.js";
import { dragFilesOver, dropDraggedFiles, pasteFiles } from "./support/page-transfer.js";
import { gradientPng } from "./support/png.js";

const EXAMPLE = fileURLToPath(new URL("../examples/browser-upload", import.meta.url));
const MIB = 1024 * 1024;
const REMOTE_PNG = gradientPng(160, 100);

describe("examples/browser-upload in Chromium", () => {
  // The link test's image is on a loopback site: remote fetches may reach 127.0.0.0/8 here.
  const server = useServerProcess({ TROVE_TRUSTED_RANGES: "127.0.0.0/8" });
  let remote: StaticServer;
  let site: StaticServer;
  let workDir: string;
  const admin = () => adminClient(server);

  beforeAll(async () => {
    site = await startExampleSite(EXAMPLE, server);
    remote = await startStaticServer({ files: { "/pier.png": { type: "image/png", body: REMOTE_PNG } } });
    workDir = await mkdtemp(join(tmpdir(), "trove-example-files-"));
  });

  afterAll(async () => {
    await site?.close();
    await remote?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const chrome = useChromium({ startAt: () => `${site.url}/` });

  const row = (page: Page, name: string): Locator => page.locator(`li.upload[data-name="${name}"]`);
  const waitForState = (page: Page, name: string, state: string) =>
    waitForRowState(chrome.tab, row(page, name), name, state);

  /** A file of random bytes on disk: Chromium reads it itself, nothing large crosses the protocol. */
  async function randomFile(name: string, size: number): Promise<{ path: string; bytes: Uint8Array }> {
    const path = join(workDir, name);
    const bytes = randomBytes(size);
    await writeFile(path, bytes);
    return { path, bytes };
  }

  it("uploads a chosen image, lists it on the server and shows its thumbnail", async () => {
    const { page } = chrome.tab;
    const png = gradientPng(320, 200);
    await page
      .locator("#file-input")
      .setInputFiles({ name: "gradient.png", mimeType: "image/png", buffer: png });

    await waitForState(page, "gradient.png", "done");
    const done = row(page, "gradient.png");
    expect(await done.locator("progress").evaluate((el) => (el as HTMLProgressElement).value)).toBe(100);
    const fileNo = await done.getAttribute("data-file-no");
    expect(fileNo).toMatch(/^\d+$/);

    const { files } = await admin().files.list({ name: "gradient" });
    const listed = files.find((file) => file.file_no === fileNo);
    expect(listed).toMatchObject({ name: "gradient.png", file_size: png.length, width: 320, height: 200 });
    expect(await downloadSha256(listed!.url)).toEqual(digestOf(png));

    // The thumbnail is fetched by the page from the delivery host: inside 256×256, never enlarged.
    const thumb = done.locator("img.thumb");
    expect(await thumb.getAttribute("src")).toBe(listed!.thumbnail);
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
      await thumb.elementHandle(),
    );
    const natural = await thumb.evaluate((img) => [
      (img as HTMLImageElement).naturalWidth,
      (img as HTMLImageElement).naturalHeight,
    ]);
    expect(natural).toEqual([256, 160]);
  });

  it("uploads a .heic picked from a phone (no type from the browser) and shows it as WebP", async () => {
    const { page } = chrome.tab;
    const heic = readFileSync(
      new URL("../apps/server/test/fixtures/heif/photo-1280x800.heic", import.meta.url),
    );
    // What Chromium gives a HEIC on most desktops: the name, no MIME type.
    await page.locator("#file-input").setInputFiles({ name: "IMG_0042.HEIC", mimeType: "", buffer: heic });

    await waitForState(page, "IMG_0042.HEIC", "done");
    const fileNo = await row(page, "IMG_0042.HEIC").getAttribute("data-file-no");
    const { files } = await admin().files.list({ name: "IMG_0042" });
    const listed = files.find((file) => file.file_no === fileNo);
    expect(listed).toMatchObject({
      name: "IMG_0042.heic", // the extension is the sniffed format's
      file_size: heic.length,
      width: 1280,
      height: 800,
    });
    expect(await downloadSha256(listed!.url)).toEqual(digestOf(heic));

    // The row's thumbnail is the delivery host's WebP of the HEIC, and Chromium displays it.
    const thumb = row(page, "IMG_0042.HEIC").locator("img.thumb");
    expect(await thumb.getAttribute("src")).toMatch(/f_webp/);
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
      await thumb.elementHandle(),
    );
    expect(await thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(256);
  });

  it("shows a chosen image at once from a blob: URL while it uploads, and sizes in decimal units", async () => {
    const { page } = chrome.tab;
    await throttleUploads(page, 256 * 1024);
    const png = gradientPng(400, 300);
    await page
      .locator("#file-input")
      .setInputFiles({ name: "early.png", mimeType: "image/png", buffer: png });
    const thumb = row(page, "early.png").locator("img.thumb");
    expect(await thumb.getAttribute("src")).toMatch(/^blob:/);
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth === 400,
      await thumb.elementHandle(),
    );
    expect(await row(page, "early.png").locator(".name").textContent()).toMatch(/^early\.png · [\d.]+ kB$/);
    await waitForState(page, "early.png", "done");
    // Uploaded: the delivery host's thumbnail took the local preview's place.
    expect(await thumb.getAttribute("src")).not.toMatch(/^blob:/);
  });

  it("takes files dropped anywhere on the page (an overlay while dragging) and pasted files", async () => {
    const { page } = chrome.tab;
    const dropped = gradientPng(90, 60);
    await dragFilesOver(page, "h1", [{ name: "dropped.png", mimeType: "image/png", buffer: dropped }]);
    expect(await page.locator("#drop-overlay").isVisible()).toBe(true);
    await dropDraggedFiles(page, "h1");
    expect(await page.locator("#drop-overlay").isHidden()).toBe(true);
    await pasteFiles(page, [{ name: "pasted.png", mimeType: "image/png", buffer: gradientPng(30, 30) }]);
    await waitForState(page, "dropped.png", "done");
    await waitForState(page, "pasted.png", "done");
    const { files } = await admin().files.list({ name: "dropped" });
    expect(await downloadSha256(files[0]!.url)).toEqual(digestOf(dropped));
    expect((await admin().files.list({ name: "pasted" })).files).toHaveLength(1);
  });

  it("uploads from a link: the server fetches the image and the row shows it like any other", async () => {
    const { page } = chrome.tab;
    const field = page.getByLabel("From a link");
    await field.fill("ftp://example.com/x.png");
    await page.getByRole("button", { name: "Upload link" }).click();
    expect(await page.locator("#link-error").isVisible()).toBe(true);
    await field.fill(`${remote.url}/pier.png`);
    await field.press("Enter");
    await waitForState(page, "pier.png", "done");
    expect(await page.locator("#link-error").isHidden()).toBe(true);
    const fileNo = await row(page, "pier.png").getAttribute("data-file-no");
    const { files } = await admin().files.list({ name: "pier" });
    const listed = files.find((file) => file.file_no === fileNo);
    expect(listed).toMatchObject({ name: "pier.png", width: 160, height: 100 });
    expect(await downloadSha256(listed!.url)).toEqual(digestOf(REMOTE_PNG));
    expect(await row(page, "pier.png").locator("img.thumb").getAttribute("src")).toBe(listed!.thumbnail);
  });

  it("pause and resume buttons hold and finish a multipart upload", async () => {
    const { page } = chrome.tab;
    const size = 24 * MIB;
    await throttleUploads(page, 6 * MIB);
    const file = await randomFile("paused.bin", size);
    await page.locator("#file-input").setInputFiles(file.path);

    const uploading = row(page, "paused.bin");
    await page.waitForFunction(
      (el) => el instanceof Element && Number(el.querySelector("progress")?.value) > 0,
      await uploading.elementHandle(),
    );
    // Sent and confirmed bytes side by side: a pause keeps only what storage confirmed.
    expect(await uploading.locator(".detail").textContent()).toMatch(/MB sent · [\d.]+ (B|kB|MB) confirmed/);
    await uploading.locator('button[data-action="pause"]').click();
    await waitForState(page, "paused.bin", "paused");
    const heldAt = await uploading.locator("progress").evaluate((el) => (el as HTMLProgressElement).value);
    await page.waitForTimeout(1000);
    expect(await uploading.locator("progress").evaluate((el) => (el as HTMLProgressElement).value)).toBe(
      heldAt,
    );
    expect(heldAt).toBeLessThan(100);

    await uploading.locator('button[data-action="resume"]').click();
    await waitForState(page, "paused.bin", "done");
    const fileNo = await uploading.getAttribute("data-file-no");
    const details = await admin().files.get(fileNo!);
    expect(details).toMatchObject({ name: "paused.bin", size });
    expect(await downloadSha256(details.url)).toEqual(digestOf(file.bytes));
  });

  it("the cancel button stops an upload and nothing is stored", async () => {
    const { page } = chrome.tab;
    await throttleUploads(page, 4 * MIB);
    await page.locator("#file-input").setInputFiles((await randomFile("cancelled.bin", 24 * MIB)).path);

    const uploading = row(page, "cancelled.bin");
    await page.waitForFunction(
      (el) => el instanceof Element && Number(el.querySelector("progress")?.value) > 0,
      await uploading.elementHandle(),
    );
    await uploading.locator('button[data-action="cancel"]').click();
    await waitForState(page, "cancelled.bin", "cancelled");
    expect(await uploading.locator("button:visible").allTextContents()).toEqual(["Retry", "Remove"]);
    const { files } = await admin().files.list({ name: "cancelled" });
    expect(files).toEqual([]);
  });

  it("a small upload offers Pause too (one part); a file that is not an image gets a placeholder; the total adds up", async () => {
    const { page } = chrome.tab;
    // 64 KiB/s: the 300 kB file takes seconds, long enough to see its row while it goes.
    await throttleUploads(page, 64 * 1024);
    await page.locator("#file-input").setInputFiles([
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello trove\n") },
      { name: "data.bin", mimeType: "application/octet-stream", buffer: randomBytes(300_000) },
    ]);
    // Under the multipart threshold, yet pausable: the SDK sends it as a one-part session.
    await row(page, "data.bin").locator('button[data-action="pause"]').waitFor({ state: "visible" });
    for (const name of ["notes.txt", "data.bin"]) await waitForState(page, name, "done");
    expect(await row(page, "notes.txt").locator(".placeholder").textContent()).toBe("TXT");
    expect(await row(page, "data.bin").locator(".placeholder").isVisible()).toBe(true);
    expect(await page.locator("#total").textContent()).toBe("2 files · 300 kB of 300 kB");
  });

  it("never enlarges a thumbnail beyond the image's own size", async () => {
    const { page } = chrome.tab;
    await page
      .locator("#file-input")
      .setInputFiles({ name: "tiny.png", mimeType: "image/png", buffer: gradientPng(20, 12) });
    await waitForState(page, "tiny.png", "done");
    const thumb = row(page, "tiny.png").locator("img.thumb");
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
      await thumb.elementHandle(),
    );
    const size = await thumb.evaluate((img) => [img.clientWidth, img.clientHeight]);
    expect(size).toEqual([20, 12]);
  });

  it("refuses an empty file with the server's message, then offers Retry and Remove", async () => {
    const { page } = chrome.tab;
    await page
      .locator("#file-input")
      .setInputFiles({ name: "empty.txt", mimeType: "text/plain", buffer: Buffer.alloc(0) });
    await waitForState(page, "empty.txt", "failed");
    const failed = row(page, "empty.txt");
    expect(await failed.locator(".detail").textContent()).toBe("File is empty");
    expect(await failed.locator("button:visible").allTextContents()).toEqual(["Retry", "Remove"]);
    await failed.locator('button[data-action="remove"]').click();
    expect(await failed.count()).toBe(0);
  });

  it("a server it cannot reach is one message with the likely causes; Retry then uploads", async () => {
    const { page } = chrome.tab;
    await page.route(`${server.baseUrl}/**`, (route) => route.abort("connectionrefused"));
    await page
      .locator("#file-input")
      .setInputFiles({ name: "offline.txt", mimeType: "text/plain", buffer: Buffer.from("later") });
    await waitForState(page, "offline.txt", "failed");
    const failed = row(page, "offline.txt");
    expect(await failed.locator(".detail").textContent()).toBe(
      `Could not reach ${server.baseUrl}: the server may be down, baseUrl may be wrong, or CORS refused this origin`,
    );
    await page.unroute(`${server.baseUrl}/**`);
    await failed.locator('button[data-action="retry"]').click();
    await waitForState(page, "offline.txt", "done");
  });

  it("after a reload, lists the interrupted upload and continues it when the file is chosen again", async () => {
    const { page } = chrome.tab;
    await throttleUploads(page, 6 * MIB);
    const file = await randomFile("reloaded.bin", 24 * MIB);
    await page.locator("#file-input").setInputFiles(file.path);
    const uploading = row(page, "reloaded.bin");
    // Wait for a confirmed part: that is what a resume keeps.
    await page.waitForFunction(
      (el) =>
        el instanceof Element &&
        /[1-9][\d.]* MB confirmed/.test(el.querySelector(".detail")?.textContent ?? ""),
      await uploading.elementHandle(),
      { timeout: 60_000 },
    );
    await page.reload();
    const reminder = page.locator('#resumable li[data-name="reloaded.bin"]');
    await reminder.waitFor();
    expect(await reminder.textContent()).toMatch(
      /^Resume reloaded\.bin \(([1-9]\d?)%\): choose the file again$/,
    );
    await throttleUploads(page, 64 * MIB);
    await page.locator("#file-input").setInputFiles(file.path);
    expect(await reminder.count()).toBe(0);
    await waitForState(page, "reloaded.bin", "done");
    const details = await admin().files.get((await row(page, "reloaded.bin").getAttribute("data-file-no"))!);
    expect(await downloadSha256(details.url)).toEqual(digestOf(file.bytes));
  });
});
