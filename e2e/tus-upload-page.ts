/**
 * How e2e/tus-upload.browser.test.ts drives examples/tus-upload: one driver per tus client (how a
 * file is chosen, how far it has gone, where the page shows the finished file_no), and a log of
 * the tus requests the page sends, with the answers Trove gave.
 */
import type { Locator, Page } from "playwright-core";

export interface TusClientDriver {
  name: string;
  /** Chooses the file at `path` and starts its upload as a user would. */
  choose(page: Page, path: string): Promise<void>;
  /** Resolves once the page reports at least `percent` of the bytes sent. */
  waitForProgress(page: Page, percent: number): Promise<void>;
  /** Waits for the finished upload and returns the file_no the page shows, and its link. */
  finished(page: Page): Promise<{ fileNo: string; href: string | null }>;
}

const DONE_TIMEOUT = 120_000;

export const uppyDriver: TusClientDriver = {
  name: "Uppy",
  async choose(page, path) {
    // The Dashboard's own hidden input for files (not the one for folders or the camera).
    await page
      .locator('#uppy input.uppy-Dashboard-input[type="file"]:not([webkitdirectory]):not([capture])')
      .first()
      .setInputFiles(path);
    await page.locator("#uppy .uppy-StatusBar-actionBtn--upload").click();
  },
  async waitForProgress(page, percent) {
    await page.waitForFunction(
      (least) =>
        Number(document.querySelector("#uppy .uppy-StatusBar-progress")?.getAttribute("aria-valuenow")) >=
        least,
      percent,
      { timeout: DONE_TIMEOUT },
    );
  },
  async finished(page) {
    const item = page.locator("#uppy-results li").last();
    await item.waitFor({ timeout: DONE_TIMEOUT });
    if ((await item.getAttribute("class")) === "error")
      throw new Error(`Uppy failed: ${await item.textContent()}`);
    return { fileNo: await shownFileNo(item), href: await item.locator("a").getAttribute("href") };
  },
};

export const tusJsDriver: TusClientDriver = {
  name: "tus-js-client",
  async choose(page, path) {
    await page.locator("#tus-file").setInputFiles(path);
  },
  async waitForProgress(page, percent) {
    await page.waitForFunction(
      (least) =>
        ((document.querySelector("#tus-progress") as HTMLProgressElement | null)?.value ?? 0) >= least,
      percent,
      { timeout: DONE_TIMEOUT },
    );
  },
  async finished(page) {
    const section = page.locator('#tus-js[data-state="done"], #tus-js[data-state="error"]');
    await section.waitFor({ timeout: DONE_TIMEOUT });
    if ((await section.getAttribute("data-state")) === "error") {
      throw new Error(`tus-js-client failed: ${await page.locator("#tus-status").textContent()}`);
    }
    const result = page.locator("#tus-result");
    return { fileNo: await shownFileNo(result), href: await result.locator("a").getAttribute("href") };
  },
};

/** The file_no a result element shows: its `data-file-no`, which must be the number in its text. */
async function shownFileNo(result: Locator): Promise<string> {
  const fileNo = await result.getAttribute("data-file-no");
  const shown = await result.locator(".file-no").textContent();
  if (!fileNo || shown !== fileNo) {
    throw new Error(`the page shows no file_no (${await result.textContent()})`);
  }
  return fileNo;
}

export interface TusExchange {
  method: string;
  url: string;
  /** The request's Upload-Offset (PATCH). */
  requestOffset: number | undefined;
  status: number;
  /** The answer's Upload-Offset (HEAD, PATCH). */
  responseOffset: number | undefined;
  /** The answer's Location (POST), absolute. */
  location: string | undefined;
}

export interface TusExchangeLog {
  /** Answered requests in the order their answers came; cut-off requests are not listed. */
  exchanges: TusExchange[];
  /** Resolves once every answer seen so far is in `exchanges` (reading headers is asynchronous). */
  settled(): Promise<void>;
}

/** Logs every request the page sends to `endpoint` (and the upload URLs under it) with its answer. */
export function logTusExchanges(page: Page, endpoint: string): TusExchangeLog {
  const exchanges: TusExchange[] = [];
  const pending: Promise<void>[] = [];
  page.on("response", (response) => {
    const request = response.request();
    if (!request.url().startsWith(endpoint) || request.method() === "OPTIONS") return;
    const slot = exchanges.length;
    exchanges.length += 1;
    pending.push(
      Promise.all([request.allHeaders(), response.allHeaders()]).then(([sent, answer]) => {
        exchanges[slot] = {
          method: request.method(),
          url: request.url(),
          requestOffset: numberOrUndefined(sent["upload-offset"]),
          status: response.status(),
          responseOffset: numberOrUndefined(answer["upload-offset"]),
          location: answer.location ? new URL(answer.location, request.url()).href : undefined,
        };
      }),
    );
  });
  return {
    exchanges,
    settled: async () => {
      await Promise.all(pending);
    },
  };
}

const numberOrUndefined = (value: string | undefined) => (value === undefined ? undefined : Number(value));
