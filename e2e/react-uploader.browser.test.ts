// @trove/react in real Chromium against the real server: <TroveUploader> (under StrictMode)
// uploads through its file input, pauses and resumes a multipart upload, resumes one after a page
// reload without sending its confirmed parts again, cancels one, shows the server's refusal of a
// type, rides out a real 429 from the rate limiter, and passes axe-core;
// <TroveImage> shows the uploaded image from the delivery host. Runs with TROVE_BROWSER_TESTS=1.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { throttleUploads, waitForRowState } from "@trove/test-support/browser/chromium";
import type { StaticServer } from "@trove/test-support/browser/static-server";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import type { Locator, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReactPageConfig } from "./react-uploader-page.js";
import { adminClient } from "./support/admin-client.js";
import { axeViolations } from "./support/axe.js";
import { digestOf, downloadSha256 } from "./support/page-assertions.js";
import { gradientPng } from "./support/png.js";
import { mountReactPage, startReactPageSite } from "./support/react-page-site.js";

const MIB = 1024 * 1024;
/** The server's part size (S3's 5 MiB floor) for any file under 50 GB. */
const PART_SIZE = 5 * MIB;
describe("@trove/react in Chromium against trove-server", () => {
  let server: ServerProcess;
  // A second server whose public key may make one request per 1.5 s: a real 429 to ride out.
  let limited: ServerProcess;
  let site: StaticServer;

  beforeAll(async () => {
    const [started, startedLimited] = await Promise.all([
      // Random bytes sniff as application/octet-stream; a PDF is refused by the key's policy.
      startServerProcess({ TROVE_PUBLIC_KEY_ALLOWED_TYPES: "image/*,application/octet-stream" }),
      startServerProcess({
        TROVE_RATE_LIMIT_PUBLIC_KEY_ADDRESS_MAX: "1",
        TROVE_RATE_LIMIT_WINDOW_MS: "1500",
      }),
    ]);
    server = started;
    limited = startedLimited;
    site = await startReactPageSite();
  });

  afterAll(async () => {
    await site?.close();
    await Promise.all([server?.stop(), limited?.stop()]);
  });

  const chrome = useChromium({
    startAt: () => `${site.url}/`,
    afterEachTest: (tab) => expect(tab.pageErrors.filter((e) => !e.includes("status of 4"))).toEqual([]),
  });

  const mount = (options: Partial<ReactPageConfig> = {}, on: ServerProcess = server): Promise<Page> =>
    mountReactPage(chrome.tab.page, on, options);

  const fileInput = (page: Page): Locator => page.getByLabel(/Drop files here/).and(page.locator("input"));
  const row = (page: Page, name: string): Locator => page.locator(`li.trove-upload[data-name="${name}"]`);

  const waitForState = (page: Page, name: string, state: string) =>
    waitForRowState(chrome.tab, row(page, name), name, state);

  async function choose(page: Page, name: string, buffer: Buffer, mimeType = "application/octet-stream") {
    await fileInput(page).setInputFiles({ name, mimeType, buffer });
  }

  it("uploads a chosen image, and the gallery shows it through <TroveImage> from the delivery host", async () => {
    const page = await mount();
    const png = gradientPng(320, 240);
    await choose(page, "gradient.png", png, "image/png");
    await waitForState(page, "gradient.png", "done");
    expect(
      await row(page, "gradient.png")
        .locator("progress")
        .evaluate((el) => (el as HTMLProgressElement).value),
    ).toBe(100);

    const admin = adminClient(server);
    const { files } = await admin.files.list({ name: "gradient" });
    expect(files[0]).toMatchObject({ name: "gradient.png", file_size: png.length });
    expect(await downloadSha256(files[0]!.url)).toEqual(digestOf(png));

    const image = page.locator('ul.gallery img[alt="gradient.png"]');
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("ul.gallery img");
      return img?.complete && img.naturalWidth > 0;
    });
    expect(await image.getAttribute("loading")).toBe("lazy");
    expect(await image.getAttribute("src")).toMatch(/\/w_160,h_120,c_fill,f_auto\/.*gradient\.png$/);
    expect(await image.getAttribute("srcset")).toMatch(/w_320,h_240,c_fill,f_auto\/.*gradient\.png 2x$/);
    // f_auto answered with a format Chromium asked for, at the size the srcset picked.
    const rendition = await image.evaluate((img: HTMLImageElement) => ({
      w: img.naturalWidth,
      src: img.currentSrc,
    }));
    const response = await fetch(rendition.src, { headers: { accept: "image/avif,image/webp,*/*" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^image\/(avif|webp)$/);
    expect([160, 320]).toContain(rendition.w);
  });

  it("pauses a multipart upload from its row, resumes it and stores it byte-exact", async () => {
    const page = await mount();
    await throttleUploads(page, 8 * MIB);
    const bytes = randomBytes(12 * MIB);
    await choose(page, "big.bin", bytes);
    await page.getByRole("button", { name: "Pause big.bin" }).click();
    await waitForState(page, "big.bin", "paused");
    const sentAtPause = await row(page, "big.bin")
      .locator("progress")
      .evaluate((el) => (el as HTMLProgressElement).value);
    expect(sentAtPause).toBeLessThan(100);
    await expect
      .poll(() => page.locator('[aria-live="polite"]').textContent())
      .toMatch(/big\.bin: paused at \d+%/);

    await page.getByRole("button", { name: "Resume big.bin" }).click();
    await waitForState(page, "big.bin", "done");
    const admin = adminClient(server);
    const { files } = await admin.files.list({ name: "big" });
    expect(await downloadSha256(files[0]!.url)).toEqual(digestOf(bytes));
  });

  it("resumes after a reload: lists the stored upload, and the same file sends only the parts not confirmed", async () => {
    // One part at a time, so parts are confirmed in order and a pause leaves some of them stored.
    const config = { partConcurrency: 1 };
    const page = await mount(config);
    await throttleUploads(page, 2 * MIB);
    // A file on disk, not a buffer: the browser's File then keeps the file's modification time
    // across the reload, and name + size + time is how the SDK recognises it.
    const dir = await mkdtemp(join(tmpdir(), "trove-react-resume-"));
    try {
      const bytes = randomBytes(4 * PART_SIZE);
      const path = join(dir, "resume.bin");
      await writeFile(path, bytes);
      // Part numbers of the part PUTs the browser sent, and of those the server accepted.
      const sent: number[] = [];
      const accepted: number[] = [];
      page.on("request", (request) => {
        const part = partNumberOf(request);
        if (part !== undefined) sent.push(part);
      });
      page.on("response", (response) => {
        const part = partNumberOf(response.request());
        if (part !== undefined && response.ok()) accepted.push(part);
      });

      await fileInput(page).setInputFiles(path);
      // The row says "… confirmed" once the SDK has recorded a part as stored.
      await row(page, "resume.bin")
        .getByText(/confirmed/)
        .waitFor({ timeout: 60_000 });
      await page.getByRole("button", { name: "Pause resume.bin" }).click();
      await waitForState(page, "resume.bin", "paused");
      const confirmedBefore = [...new Set(accepted)].sort((a, b) => a - b);
      expect(confirmedBefore.length).toBeGreaterThanOrEqual(1);
      expect(confirmedBefore.length).toBeLessThan(4);
      expect(confirmedBefore).toEqual(range(1, confirmedBefore.length));

      await page.reload();
      sent.length = 0;
      await throttleUploads(page, -1);
      await mount(config);
      const resumable = page.locator(".trove-uploader__resumable li");
      await expect.poll(() => resumable.count()).toBe(1);
      expect(await resumable.textContent()).toContain(
        `Resume resume.bin (${confirmedBefore.length * 25}%): choose the file again.`,
      );
      expect(await row(page, "resume.bin").count()).toBe(0);

      await fileInput(page).setInputFiles(path);
      await waitForState(page, "resume.bin", "done");
      // Only the parts the server had not confirmed were sent after the reload, each once.
      expect(sent.sort((a, b) => a - b)).toEqual(range(confirmedBefore.length + 1, 4));
      await expect.poll(() => resumable.count()).toBe(0);

      const admin = adminClient(server);
      const { files } = await admin.files.list({ name: "resume" });
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({ name: "resume.bin", file_size: bytes.length });
      expect(await downloadSha256(files[0]!.url)).toEqual(digestOf(bytes));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("cancels an upload: the row says so, offers Retry, and retrying finishes it", async () => {
    const page = await mount();
    await throttleUploads(page, 4 * MIB);
    await choose(page, "cancel.bin", randomBytes(10 * MIB));
    await page.getByRole("button", { name: "Cancel cancel.bin" }).click();
    await waitForState(page, "cancel.bin", "aborted");
    expect(await row(page, "cancel.bin").textContent()).toContain("Cancelled");
    await throttleUploads(page, -1);
    await page.getByRole("button", { name: "Retry cancel.bin" }).click();
    await waitForState(page, "cancel.bin", "done");
  });

  it("shows the server's refusal of a type the key may not upload, and a local refusal before sending", async () => {
    const page = await mount({ maxSize: 2 * MIB });
    const pdf = Buffer.from(
      "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    );
    await choose(page, "report.pdf", pdf, "application/pdf");
    await waitForState(page, "report.pdf", "error");
    const message = await row(page, "report.pdf").getByRole("alert").textContent();
    expect(message).toMatch(/application\/pdf/);

    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await choose(page, "huge.bin", randomBytes(3 * MIB));
    await expect
      .poll(() => page.locator(".trove-uploader__rejections").textContent())
      .toContain("huge.bin is 3.1 MB: the limit is 2.1 MB");
    expect(requests).toEqual([]);
    expect(await row(page, "huge.bin").count()).toBe(0);
  });

  it("rides out a real 429 from the rate limiter: the refused file is retried and uploaded", async () => {
    const page = await mount({ concurrency: 2 }, limited);
    const statuses: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith("/api/v1/uploads") && response.request().method() === "POST")
        statuses.push(response.status());
    });
    await fileInput(page).setInputFiles([
      { name: "first.bin", mimeType: "application/octet-stream", buffer: randomBytes(2048) },
      { name: "second.bin", mimeType: "application/octet-stream", buffer: randomBytes(2048) },
    ]);
    await waitForState(page, "first.bin", "done");
    await waitForState(page, "second.bin", "done");
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status === 201 || status === 200)).toHaveLength(2);
  });

  it("has no axe-core violations with a paused row and a refusal on screen, and Tab follows reading order", async () => {
    const page = await mount({ accept: "application/octet-stream,image/*" });
    await throttleUploads(page, 2 * MIB);
    await choose(page, "slow.bin", randomBytes(12 * MIB));
    await page.getByRole("button", { name: "Pause slow.bin" }).click();
    await choose(page, "notes.txt", Buffer.from("not accepted"), "text/plain");
    await page.locator(".trove-uploader__rejections").waitFor();
    const violations = await axeViolations(page, { selector: ".trove-uploader" });
    expect(violations).toEqual([]);
    // Keyboard: from the file input (in the tab order though visually hidden), Tab goes through
    // the sources' buttons, then the paused row's buttons in reading order, and Shift+Tab comes back.
    const input = fileInput(page);
    expect(await input.getAttribute("tabindex")).toBeNull();
    await input.focus();
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Camera");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("From a link");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Resume slow.bin");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Cancel slow.bin");
    for (let i = 0; i < 4; i++) await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe("file");
  });
});

/** The part number of a part PUT to the server's part gateway; undefined for any other request. */
function partNumberOf(request: Request): number | undefined {
  if (request.method() !== "PUT") return undefined;
  const match = /\/multipart\/parts\/[^/]+\/(\d+)$/.exec(new URL(request.url()).pathname);
  return match ? Number(match[1]) : undefined;
}

/** The whole numbers from `first` to `last`, both included. */
function range(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
}
