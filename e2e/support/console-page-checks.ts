/**
 * What every console suite checks on a view, in light and in dark: axe with no serious or critical
 * violation, and a screenshot of each scheme written to the suite's artifacts folder.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { axeViolations } from "./axe.js";

const require = createRequire(import.meta.url);
const SCHEMES = ["light", "dark"] as const;

/**
 * axe injected by CDP evaluation, not a <script> tag: the console's CSP (script-src 'self')
 * refuses inline scripts, which is what it is for. With `axe` on window, axeViolations runs it.
 */
export async function expectNoSeriousAxe(page: Page): Promise<void> {
  const source = await readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(source);
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page, { impacts: ["serious", "critical"] }), scheme).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** `<dir>/<name>-light.png` and `<dir>/<name>-dark.png`, by prefers-color-scheme. */
export async function screenshots(page: Page, dir: string, name: string): Promise<void> {
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${dir}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
}
