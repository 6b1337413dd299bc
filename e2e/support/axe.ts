/**
 * axe-core (a devDependency of e2e) run inside a Chromium page: the violations of the impacts a
 * test cares about, as `{ id, impact, html }`, so a failure names the rule and the element.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
let source: Promise<string> | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  html: string[];
}

/** axe's violations within `selector` (the whole document by default) of the given impacts. */
export async function axeViolations(
  page: Page,
  { selector = "html", impacts }: { selector?: string; impacts?: readonly string[] } = {},
): Promise<AxeViolation[]> {
  source ??= readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: await source });
  const found = await page.evaluate(async (within) => {
    const axe = (
      window as unknown as {
        axe: {
          run(context: Element): Promise<{
            violations: Array<{ id: string; impact: string | null; nodes: Array<{ html: string }> }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document.querySelector(within)!);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, html: v.nodes.map((n) => n.html) }));
  }, selector);
  return impacts ? found.filter((violation) => impacts.includes(violation.impact ?? "")) : found;
}
