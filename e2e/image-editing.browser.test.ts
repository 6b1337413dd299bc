// @trove/react's image editing in real Chromium (issue #35 part 3): prepareImage shrinks a
// 3000×2000 JPEG to fit 1000×1000 in a worker, dropping its EXIF/GPS; a PNG stays PNG; HEIC comes
// back unchanged; a page whose CSP refuses blob: workers still gets the result (main thread);
// <ImageEditor> rotates and crops to 1:1 by keyboard alone and passes axe. No server is needed:
// the page is built from the package's source with esbuild and served on loopback.
// Runs with TROVE_BROWSER_TESTS=1.
import { fileURLToPath } from "node:url";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import type { StaticServer } from "@trove/test-support/browser/static-server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileSummary } from "./image-editing-page.js";
import { axeViolations } from "./support/axe.js";
import { HTML, startReactPageSite } from "./support/react-page-site.js";

const ENTRY = fileURLToPath(new URL("./image-editing-page.ts", import.meta.url));
/** The CSP the README recommends for prepareImage's worker, and one that refuses it. */
const WORKER_CSP = "default-src 'self'; worker-src blob:";
const NO_WORKER_CSP = "default-src 'self'; worker-src 'none'";
const withCsp = (policy: string) =>
  HTML.replace("<head>", `<head><meta http-equiv="Content-Security-Policy" content="${policy}">`);

/**
 * A JPEG's bytes with an EXIF APP1 segment inserted after its start marker: a TIFF (big-endian)
 * whose IFD0 points to a GPS IFD holding latitude 48° 51' 24" N, as a phone writes it.
 */
function withGpsExif(jpeg: Buffer): Buffer {
  const tiff = Buffer.alloc(80);
  tiff.write("MM\0\x2a\0\0\0\x08", 0, "latin1"); // big-endian TIFF, IFD0 at 8
  /** An IFD of `entries` [tag, type, count, value or offset] at `at`, with no next IFD. */
  const ifd = (at: number, entries: Array<[number, number, number, number]>) => {
    tiff.writeUInt16BE(entries.length, at);
    for (const [n, [tag, type, count, value]] of entries.entries()) {
      const entry = at + 2 + n * 12;
      tiff.writeUInt16BE(tag, entry);
      tiff.writeUInt16BE(type, entry + 2);
      tiff.writeUInt32BE(count, entry + 4);
      tiff.writeUInt32BE(value, entry + 8);
    }
  };
  ifd(8, [[0x8825, 4, 1, 26]]); // GPSInfo (LONG) -> the GPS IFD at 26
  // GPSLatitudeRef "N" (ASCII, inline), GPSLatitude: three RATIONALs at 56.
  ifd(26, [
    [0x0001, 2, 2, 0x4e000000],
    [0x0002, 5, 3, 56],
  ]);
  for (const [n, value] of [48, 1, 51, 1, 2400, 100].entries()) tiff.writeUInt32BE(value, 56 + n * 4);
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

const hasExif = (bytes: Buffer) => bytes.includes(Buffer.from("Exif\0\0", "latin1"));
const bytesOf = (file: FileSummary) => Buffer.from(file.base64, "base64");

describe("@trove/react image editing in Chromium", () => {
  let site: StaticServer;

  beforeAll(async () => {
    site = await startReactPageSite(
      {
        "/worker-csp.html": { type: "text/html; charset=utf-8", body: withCsp(WORKER_CSP) },
        "/no-worker-csp.html": { type: "text/html; charset=utf-8", body: withCsp(NO_WORKER_CSP) },
        // Chromium asks for it on a page's first load; a 404 would be a console error.
        "/favicon.ico": { type: "image/x-icon", body: new Uint8Array(0) },
      },
      ENTRY,
    );
  });

  afterAll(async () => {
    await site?.close();
  });

  const chrome = useChromium({
    startAt: () => `${site.url}/`,
    afterEachTest: (tab) => expect(tab.pageErrors).toEqual([]),
  });

  async function photoWithGps(page: Page): Promise<string> {
    const jpeg = Buffer.from(
      await page.evaluate(() => window.troveEditing.draw(3000, 2000, "image/jpeg")),
      "base64",
    );
    return withGpsExif(jpeg).toString("base64");
  }

  /** Counts the workers the page starts while `run` runs. */
  async function countingWorkers<T>(page: Page, run: () => Promise<T>): Promise<[T, number]> {
    let workers = 0;
    const onWorker = () => {
      workers += 1;
    };
    page.on("worker", onWorker);
    try {
      return [await run(), workers];
    } finally {
      page.off("worker", onWorker);
    }
  }

  it("prepareImage shrinks a 3000×2000 JPEG to fit 1000×1000 in a worker, keeping JPEG and the name, dropping EXIF/GPS", async () => {
    for (const at of ["/", "/worker-csp.html"]) {
      const page = chrome.tab.page;
      await page.goto(`${site.url}${at}`);
      const photo = await photoWithGps(page);
      expect(hasExif(Buffer.from(photo, "base64"))).toBe(true);
      const [prepared, workers] = await countingWorkers(page, () =>
        page.evaluate(
          (b64) =>
            window.troveEditing.prepare(b64, "holiday.jpg", "image/jpeg", {
              maxWidth: 1000,
              maxHeight: 1000,
              quality: 0.8,
            }),
          photo,
        ),
      );
      expect(prepared).toMatchObject({
        name: "holiday.jpg",
        type: "image/jpeg",
        size: { width: 1000, height: 667 },
        unchanged: false,
      });
      expect(workers, at).toBe(1);
      const out = bytesOf(prepared);
      expect([out[0], out[1]]).toEqual([0xff, 0xd8]);
      expect(hasExif(out)).toBe(false);
      expect(out.length).toBeLessThan(Buffer.from(photo, "base64").length);
    }
  });

  it("prepareImage runs on the main thread when the page's CSP refuses blob: workers", async () => {
    const page = chrome.tab.page;
    await page.goto(`${site.url}/no-worker-csp.html`);
    const photo = await photoWithGps(page);
    const [prepared, workers] = await countingWorkers(page, () =>
      page.evaluate(
        (b64) => window.troveEditing.prepare(b64, "p.jpg", "image/jpeg", { maxWidth: 600 }),
        photo,
      ),
    );
    expect(workers).toBe(0);
    expect(prepared).toMatchObject({
      type: "image/jpeg",
      size: { width: 600, height: 400 },
      unchanged: false,
    });
    expect(hasExif(bytesOf(prepared))).toBe(false);
    // Chromium reports the refused worker; nothing else went wrong.
    chrome.tab.pageErrors.splice(
      0,
      chrome.tab.pageErrors.length,
      ...chrome.tab.pageErrors.filter((error) => !error.includes("Content Security Policy")),
    );
  });

  it("prepareImage keeps a PNG's type, leaves HEIC and small images unchanged", async () => {
    const page = chrome.tab.page;
    const png = await page.evaluate(() => window.troveEditing.draw(1500, 1000, "image/png"));
    const preparedPng = await page.evaluate(
      (b64) => window.troveEditing.prepare(b64, "chart.png", "image/png", { maxWidth: 1000, quality: 0.1 }),
      png,
    );
    expect(preparedPng).toMatchObject({
      name: "chart.png",
      type: "image/png",
      size: { width: 1000, height: 667 },
    });
    expect(bytesOf(preparedPng).subarray(1, 4).toString("latin1")).toBe("PNG");

    // An ISO-BMFF header with the heic brand: Chromium cannot decode it, and it is not tried.
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from("ftypheic\0\0\0\0mif1heic", "latin1"),
    ]);
    const preparedHeic = await page.evaluate(
      (b64) => window.troveEditing.prepare(b64, "IMG_0001.HEIC", "image/heic", { maxWidth: 100 }),
      heic.toString("base64"),
    );
    expect(preparedHeic).toMatchObject({
      name: "IMG_0001.HEIC",
      type: "image/heic",
      size: null,
      unchanged: true,
    });
    expect(bytesOf(preparedHeic)).toEqual(heic);

    const small = await page.evaluate(() => window.troveEditing.draw(200, 100, "image/jpeg"));
    const preparedSmall = await page.evaluate(
      (b64) => window.troveEditing.prepare(b64, "s.jpg", "image/jpeg", { maxWidth: 1000, maxHeight: 1000 }),
      small,
    );
    expect(preparedSmall).toMatchObject({ unchanged: true, size: { width: 200, height: 100 } });
  });

  /** Presses Tab until the focused element's accessible text is `name` (keyboard only). */
  async function tabTo(page: Page, name: string): Promise<void> {
    for (let i = 0; i < 20; i++) {
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        return element?.getAttribute("aria-label") ?? element?.textContent?.trim() ?? "";
      });
      if (focused === name) return;
      await page.keyboard.press("Tab");
    }
    throw new Error(`Tab never reached "${name}"`);
  }

  it("<ImageEditor> rotates and crops to 1:1 by keyboard alone, says the crop's size, and passes axe", async () => {
    const page = chrome.tab.page;
    const photo = await page.evaluate(() => window.troveEditing.draw(400, 300, "image/jpeg"));
    await page.evaluate((b64) => window.troveEditing.openEditor(b64, "cat.jpg", "image/jpeg"), photo);
    const dialog = page.getByRole("dialog", { name: "Edit image" });
    await dialog.getByRole("application", { name: "Crop area" }).waitFor();
    expect(
      await axeViolations(page, { selector: "dialog.trove-editor", impacts: ["serious", "critical"] }),
    ).toEqual([]);

    await tabTo(page, "Rotate right");
    await page.keyboard.press("Enter");
    await tabTo(page, "1:1");
    await page.keyboard.press("Space");
    expect(await dialog.getByRole("button", { name: "1:1" }).getAttribute("aria-pressed")).toBe("true");
    // Rotated, the image is 300×400; the largest centred square is 300×300.
    await expect.poll(() => dialog.locator(".trove-editor__size").textContent()).toBe("Crop 300 × 300 px");
    await tabTo(page, "Crop area");
    for (let i = 0; i < 10; i++) await page.keyboard.press("Shift+ArrowLeft"); // 3 px (1%) each
    await page.keyboard.press("ArrowDown"); // moves 4 px (1% of 400)
    await expect.poll(() => dialog.locator(".trove-editor__size").textContent()).toBe("Crop 270 × 270 px");
    expect(await dialog.locator(".trove-editor__crop").getAttribute("data-crop")).toBe("0,54,270,270");
    expect(
      await axeViolations(page, { selector: "dialog.trove-editor", impacts: ["serious", "critical"] }),
    ).toEqual([]);

    await tabTo(page, "Apply");
    await page.keyboard.press("Enter");
    const result = await page.evaluate(() => window.troveEditing.outcome);
    expect(result).toMatchObject({ name: "cat.jpg", type: "image/jpeg", size: { width: 270, height: 270 } });
    // Turned clockwise, the red left half is on top and the blue right half below.
    const [top, bottom] = await Promise.all([
      page.evaluate(() => window.troveEditing.pixel(135, 20)),
      page.evaluate(() => window.troveEditing.pixel(135, 250)),
    ]);
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);
  });

  it("<ImageEditor> takes its own aspects and strings, and Escape cancels", async () => {
    const page = chrome.tab.page;
    const photo = await page.evaluate(() => window.troveEditing.draw(320, 240, "image/png"));
    await page.evaluate(
      (b64) =>
        window.troveEditing.openEditor(b64, "a.png", "image/png", [{ label: "2:1", ratio: 2 }], {
          title: "Bild bearbeiten",
          rotateLeft: "Nach links drehen",
        }),
      photo,
    );
    const dialog = page.getByRole("dialog", { name: "Bild bearbeiten" });
    expect(await dialog.getByRole("button", { name: "Nach links drehen" }).count()).toBe(1);
    await expect.poll(() => dialog.locator(".trove-editor__size").textContent()).toBe("Crop 320 × 160 px");
    expect(await dialog.getByRole("button", { name: "2:1" }).getAttribute("aria-pressed")).toBe("true");
    expect(await dialog.getByRole("button", { name: "Free" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    expect(await page.evaluate(() => window.troveEditing.outcome)).toBe("cancelled");
  });
});
