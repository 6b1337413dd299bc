/**
 * The loopback site of the @trove/react Chromium suites: e2e/react-uploader-page.ts bundled as a
 * production React app, the package's styles.css and an HTML shell (plus any files a test adds),
 * and `mountReactPage`, which renders the page's app against a server.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import {
  type StaticFile,
  type StaticServer,
  startStaticServer,
} from "@trove/test-support/browser/static-server";
import type { ServerProcess } from "@trove/test-support/server-process";
import type { Page } from "playwright-core";
import type { ReactPageConfig } from "../react-uploader-page.js";
import { bundleForBrowser } from "./sdk-bundle.js";

const PAGE_ENTRY = fileURLToPath(new URL("../react-uploader-page.ts", import.meta.url));
const STYLES = fileURLToPath(new URL("../../packages/react/styles.css", import.meta.url));
/** The editor's rules, which styles.css @imports by this path relative to itself. */
export const EDITOR_STYLES_PATH = "/src/editing/editor.css";
const EDITOR_STYLES = fileURLToPath(new URL(`../../packages/react${EDITOR_STYLES_PATH}`, import.meta.url));
export const HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Trove React e2e</title>
<link rel="stylesheet" href="/styles.css"><script src="/page.js"></script></head>
<body><div id="root"></div></body></html>`;

/** `entry`: another page module, for suites with a page of their own (e2e/image-editing-page.ts). */
export async function startReactPageSite(
  files: Record<string, StaticFile> = {},
  entry = PAGE_ENTRY,
): Promise<StaticServer> {
  const [page, styles, editorStyles] = await Promise.all([
    bundleForBrowser(entry, { production: true }),
    readFile(STYLES, "utf8"),
    readFile(EDITOR_STYLES, "utf8"),
  ]);
  return startStaticServer({
    files: {
      "/": { type: "text/html; charset=utf-8", body: HTML },
      "/page.js": { type: "text/javascript; charset=utf-8", body: page },
      "/styles.css": { type: "text/css; charset=utf-8", body: styles },
      [EDITOR_STYLES_PATH]: { type: "text/css; charset=utf-8", body: editorStyles },
      ...files,
    },
  });
}

/** Renders the page's app in `page` (already at the site), uploading to `server` with its public key. */
export async function mountReactPage(
  page: Page,
  server: ServerProcess,
  options: Partial<ReactPageConfig> = {},
): Promise<Page> {
  const config: ReactPageConfig = {
    baseUrl: server.baseUrl,
    publicKey: server.keys.public,
    assetsUrl: server.assetsUrl,
    ...options,
  };
  await page.evaluate((c) => window.troveReact.mount(c), config);
  return page;
}
