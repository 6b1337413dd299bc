/**
 * One Chromium for a test file, and a fresh tab for each test: opened (at `startAt()`, when
 * given) before the test, and after it checked that the page asked nothing of any address but
 * loopback, then closed. Register it after the hooks that start what the page talks to: it is
 * launched after them and closed before them.
 */
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { type BrowserPage, launchChromium, openPage } from "./chromium.js";

export interface ChromiumPerFile {
  readonly browser: Browser;
  /** The current test's tab. */
  readonly tab: BrowserPage;
}

export function useChromium(
  options: {
    /** Where each test's tab starts; none: a blank tab. */
    startAt?: () => string;
    /** More checks on the tab after each test (before it closes). */
    afterEachTest?: (tab: BrowserPage) => void;
  } = {},
): ChromiumPerFile {
  let browser: Browser | undefined;
  let tab: BrowserPage | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    tab = await openPage(required(browser, "Chromium"));
    if (options.startAt) await tab.page.goto(options.startAt());
  });
  afterEach(async () => {
    const current = required(tab, "the tab");
    expect(current.foreignRequests, "the page requested something off loopback").toEqual([]);
    options.afterEachTest?.(current);
    await current.close();
  });
  return {
    get browser() {
      return required(browser, "Chromium");
    },
    get tab() {
      return required(tab, "the tab");
    },
  };
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not open: use it inside a test or hook`);
  return value;
}
