/**
 * Real Chromium for browser tests: Debian's `chromium` package driven by playwright-core
 * (`npx playwright install` cannot download browsers here). The browser may reach loopback only:
 * every other request is sent to a proxy address where nothing listens, and each page records
 * what it requested so a test can assert that nothing else was asked for.
 *
 * Browser suites run when TROVE_BROWSER_TESTS=1 (CI installs chromium and sets it); see
 * e2e/vitest.config.ts. With the flag set and no browser, they fail with the install command.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";

export const BROWSER_TESTS_ENABLED = process.env.TROVE_BROWSER_TESTS === "1";

/**
 * What Debian's chromium needs to run in a container without a display: headless, no sandbox (the
 * container gives it no user namespaces), no GPU; and nothing started in the background (updates,
 * sync, first-run pages) that would talk to the network or slow the start.
 */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * Anything not bound for loopback goes to this proxy, where nothing listens: the request fails
 * inside the browser and no packet leaves the machine. Loopback bypasses it (Chromium's default).
 */
const LOOPBACK_ONLY = ["--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1;localhost;[::1]"];

/** Path of the Chromium binary: CHROMIUM_PATH, else `chromium` (or `chromium-browser`) on PATH. */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  for (const name of ["chromium", "chromium-browser"]) {
    try {
      const path = execFileSync("which", [name], { encoding: "utf8" }).trim();
      if (path) return path;
    } catch {
      // not on PATH
    }
  }
  throw new Error(
    "Browser tests need Chromium and none was found on PATH. Install it with " +
      "`apt-get install -y chromium` (CI does), set CHROMIUM_PATH, or unset TROVE_BROWSER_TESTS.",
  );
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...FLAGS, ...LOOPBACK_ONLY],
    timeout: 60_000,
  });
}

export function isLoopbackUrl(raw: string): boolean {
  const url = new URL(raw);
  if (url.protocol === "data:" || url.protocol === "blob:" || url.protocol === "about:") return true;
  return url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
}

export interface BrowserPage {
  context: BrowserContext;
  page: Page;
  /** Requests the page made to anything but loopback (they fail; a test asserts there are none). */
  foreignRequests: string[];
  /** Uncaught errors and console errors of the page, for assertions and failure messages. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** A fresh context (own storage) and page, watched for foreign requests and page errors. */
export async function openPage(browser: Browser): Promise<BrowserPage> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];
  context.on("request", (request) => {
    if (!isLoopbackUrl(request.url())) foreignRequests.push(request.url());
  });
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(`console.error: ${message.text()}`);
  });
  return { context, page, foreignRequests, pageErrors, close: () => context.close() };
}

/** Slows the page's uploads (Chromium's own throttle), so a test can act mid-upload. */
export async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

/**
 * Waits until `row` (the row of the upload `name` in the page) has `data-state="<state>"`; on
 * timeout, fails with the state it is in and the page's errors.
 */
export async function waitForRowState(
  tab: BrowserPage,
  row: Locator,
  name: string,
  state: string,
): Promise<Locator> {
  try {
    await row.and(tab.page.locator(`[data-state="${state}"]`)).waitFor({ timeout: 60_000 });
    return row;
  } catch (error) {
    const current = await row
      .evaluate((el) => `${el.getAttribute("data-state")}: ${el.textContent}`)
      .catch(() => "no row");
    throw new Error(`row ${name} never became ${state} (${current})\n${tab.pageErrors.join("\n")}`, {
      cause: error,
    });
  }
}
