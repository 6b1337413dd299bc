// The console (apps/console) built with its own Vite and served by a real trove-server
// (TROVE_CONSOLE_DIR), driven in Chromium over loopback: sign-in with the private key, the
// library of files uploaded beforehand through the API (a virtualized grid paged from the API),
// search, details and the transform playground, an upload through <TroveUploader>, a confirmed
// delete, sign-out; a refused key's message; axe on the sign-in page and the library; screenshots
// (light and dark) under e2e/.artifacts/console/. Every page error, CSP violations included (they
// are console errors), fails the test. Runs with TROVE_BROWSER_TESTS=1.
import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { TroveClient } from "@trove/sdk";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { viteBuild } from "@trove/test-support/browser/vite-build";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminClient } from "./support/admin-client.js";
import { expectNoSeriousAxe, screenshots } from "./support/console-page-checks.js";
import { gradientPng } from "./support/png.js";

const CONSOLE_APP = fileURLToPath(new URL("../apps/console", import.meta.url));
const ARTIFACTS = fileURLToPath(new URL("./.artifacts/console", import.meta.url));
/** More than two of the list endpoint's largest pages (100), so the grid must fetch page 3. */
const BULK_FILES = 205;
/** The workspace size the grid is built for. */
const HUGE = 100_000;
/** How long the page may take to show a list after a change: requests in series (CI runs loaded). */
const SETTLE = { timeout: 15_000 };
const ADMIN_TOKEN = randomBytes(32).toString("hex");
const EXPECTED_401 =
  "console.error: Failed to load resource: the server responded with a status of 401 (Unauthorized)";

describe("the console in Chromium", () => {
  let server: ServerProcess;
  let consoleDir: string;
  let api: TroveClient;

  beforeAll(async () => {
    consoleDir = await viteBuild(CONSOLE_APP, {});
    server = await startServerProcess({ TROVE_CONSOLE_DIR: consoleDir, TROVE_ADMIN_TOKEN: ADMIN_TOKEN });
    api = adminClient(server);
    // A folder of three images, and enough files at the root for three pages of the grid.
    for (const [index, name] of [
      "sunset.png",
      "harbour.png",
      "<img src=x onerror=alert(1)> & co.png",
    ].entries()) {
      await api.upload(gradientPng(320 + index * 40, 240), { fileName: name, folder: "holidays" });
    }
    for (let index = 0; index < BULK_FILES; index += 4) {
      await Promise.all(
        Array.from({ length: Math.min(4, BULK_FILES - index) }, (_, offset) =>
          api.upload(gradientPng(8, 8 + ((index + offset) % 50)), {
            fileName: `bulk-${String(index + offset).padStart(3, "0")}.png`,
          }),
        ),
      );
    }
    await mkdir(ARTIFACTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    if (consoleDir) await rm(consoleDir, { recursive: true, force: true });
  });

  // Chromium logs every 4xx answer as a console error. The session read answers 401 when signed
  // out and a refused sign-in 401: those are expected (and checked to be the only ones below);
  // every other page error fails the test.
  const failedAnswers: string[] = [];
  const expectedFailures = new Set(["401 /console/api/session"]);
  const chrome = useChromium({
    startAt: () => `${server.baseUrl}/console`,
    afterEachTest: (tab) => {
      expect(tab.pageErrors.filter((error) => error !== EXPECTED_401)).toEqual([]);
      expect(failedAnswers.filter((answer) => !expectedFailures.has(answer))).toEqual([]);
      failedAnswers.length = 0;
      expectedFailures.clear();
      expectedFailures.add("401 /console/api/session");
    },
  });
  // Registered after useChromium's own beforeEach, which has already loaded /console: its session
  // read is covered by the page-error filter above, everything after by this list.
  beforeEach(() => {
    chrome.tab.page.on("response", (response) => {
      if (response.status() >= 400)
        failedAnswers.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
  });

  it("signs in with the private key, browses, searches, transforms, uploads, deletes and signs out", async () => {
    const { page } = chrome.tab;
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await expectNoSeriousAxe(page);
    await screenshots(page, ARTIFACTS, "sign-in");

    await signIn(page, server.keys.private);
    const grid = page.getByRole("list", { name: "Files" });
    // Newest first by default.
    await grid.getByRole("button", { name: /^bulk-204\.png/ }).waitFor();
    await expect
      .poll(() => page.locator(".toolbar__count").textContent(), SETTLE)
      .toBe(`${BULK_FILES + 3} files`);
    // The secret is nowhere the page keeps things: the cookie is HttpOnly, storage is empty.
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([
      0,
      0,
      "",
    ]);
    expect(page.url()).not.toContain(server.keys.private);

    // Sorted by name, ascending: scrolling to the end fetches the last page (only), and the grid
    // keeps only the rows on screen in the DOM.
    await page.getByLabel("Sort by").selectOption("name");
    await page.getByLabel("Order").selectOption("asc");
    await grid.getByRole("button", { name: /^bulk-000\.png/ }).waitFor();
    await page.locator(".file-grid").evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await grid.getByRole("button", { name: /^sunset\.png/ }).waitFor();
    expect(await page.locator(".file-tile").count()).toBeLessThan(100);

    // The folder tree: the holidays folder shows its three files; a name with markup is text.
    await page
      .getByRole("navigation", { name: "Folders" })
      .getByRole("button", { name: /^holidays/ })
      .click();
    await expect.poll(() => page.locator(".toolbar__count").textContent(), SETTLE).toBe("3 files");
    await grid.getByRole("button", { name: /^<img src=x onerror=alert\(1\)> & co\.png/ }).waitFor();
    expect(await page.locator('.file-grid img[src="x"]').count()).toBe(0);

    // Search by name.
    await page.getByLabel("Search by name").fill("harb");
    await expect.poll(() => page.locator(".toolbar__count").textContent(), SETTLE).toBe("1 file");
    const harbour = grid.getByRole("button", { name: /^harbour\.png/ });
    await page.waitForFunction(
      (img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0,
      await harbour.locator("img").elementHandle(),
    );
    await screenshots(page, ARTIFACTS, "library");
    await expectNoSeriousAxe(page);

    // Details and the transform playground: a bad transform shows the grammar's message, a good
    // one a loaded preview of its URL.
    await harbour.click();
    const details = page.getByRole("complementary", { name: "harbour.png" });
    await details.getByText("360 × 240").waitFor();
    const transform = details.getByLabel("Transform", { exact: true });
    await transform.fill("w_abc");
    await details.locator("p.error").waitFor();
    expect(await details.locator("p.error").textContent()).toMatch(/w/);
    expect(await details.locator(".playground__preview").count()).toBe(0);
    await details.getByRole("button", { name: "Square thumbnail" }).click();
    expect(await transform.inputValue()).toBe("w_300,h_300,c_fill");
    const preview = details.locator("img.playground__preview");
    expect(await preview.getAttribute("src")).toContain("/w_300,h_300,c_fill/");
    const size = await page.waitForFunction(
      (img) =>
        img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0
          ? [img.naturalWidth, img.naturalHeight]
          : null,
      await preview.elementHandle(),
    );
    // Filled to a square; the server does not enlarge, so a 240-pixel-high image gives 240 × 240.
    expect(await size.jsonValue()).toEqual([240, 240]);
    // Copy puts the transformed URL on the clipboard.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    await details.getByRole("button", { name: "Copy the transformed URL" }).click();
    await details.getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await preview.getAttribute("src"));
    await screenshots(page, ARTIFACTS, "details");
    // Escape closes the panel and gives focus back to the file's tile.
    await transform.press("Escape");
    await details.waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^harbour\.png/);

    // Upload into the selected folder through <TroveUploader>; the list refreshes when it is done.
    await page.getByLabel("Search by name").fill("");
    await page
      .locator(".library__uploader .trove-uploader__zone input")
      .setInputFiles({ name: "uploaded-here.png", mimeType: "image/png", buffer: gradientPng(64, 48) });
    await page
      .locator('li.trove-upload[data-name="uploaded-here.png"][data-state="done"]')
      .waitFor({ timeout: 60_000 });
    await grid.getByRole("button", { name: /^uploaded-here\.png/ }).waitFor();
    const { files: uploaded } = await api.files.list({ name: "uploaded-here" });
    expect(uploaded).toHaveLength(1);
    expect((await api.files.get(uploaded[0]!.file_no)).folder?.name).toBe("holidays");

    // Select two and delete them after the confirm step (Cancel first: nothing goes).
    await page.getByRole("checkbox", { name: "Select sunset.png" }).check();
    await page.getByRole("checkbox", { name: "Select uploaded-here.png" }).check();
    await page.getByRole("button", { name: "Delete selected (2)" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    expect((await api.files.list({ name: "sunset" })).files).toHaveLength(1);
    await page.getByRole("button", { name: "Delete selected (2)" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => page.locator(".toolbar__count").textContent(), SETTLE).toBe("2 files");
    expect((await api.files.list({ name: "sunset" })).files).toEqual([]);
    expect((await api.files.list({ name: "uploaded-here" })).files).toEqual([]);

    // Sign out: the sign-in page again, and the old session no longer reads.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    const after = await page.evaluate(async () => (await fetch("/console/api/session")).status);
    expect(after).toBe(401);
  }, 180_000);

  it("shows the server's message for a public key, clears the field and keeps nothing", async () => {
    const { page } = chrome.tab;
    await signIn(page, server.keys.public);
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toBe("The console signs in with a private key or the admin token");
    expect(await page.getByLabel("Private key or admin token").inputValue()).toBe("");
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, location.href])).toEqual([
      0,
      0,
      `${server.baseUrl}/console`,
    ]);
  });
  it("signs in from the keyboard, pins the theme, shows a list, and returns to sign-in when the session ends elsewhere", async () => {
    const { page } = chrome.tab;
    const field = page.getByLabel("Private key or admin token");
    await field.focus();
    await page.keyboard.type(server.keys.private);
    await page.keyboard.press("Enter");
    await page
      .getByRole("list", { name: "Files" })
      .getByRole("button", { name: /^bulk-/ })
      .first()
      .waitFor();

    // The toggle cycles system → light → dark, pinned on <html> whatever the system prefers.
    const toggle = page.getByRole("button", { name: /^Theme:/ });
    await toggle.click();
    await toggle.click();
    expect(await toggle.textContent()).toBe("Theme: dark");
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await page.emulateMedia({ colorScheme: "light" });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      "rgb(21, 23, 27)",
    );

    await page.getByRole("button", { name: "List", exact: true }).click();
    await page.locator(".file-grid--list .file-tile").first().waitFor();

    // Another tab signs out: the next API call answers 401 and the page asks to sign in again.
    await page.evaluate(async () => {
      const session = (await (await fetch("/console/api/session")).json()) as {
        data: { csrf_token: string };
      };
      await fetch("/console/api/session", {
        method: "DELETE",
        headers: { "x-csrf-token": session.data.csrf_token },
      });
    });
    expectedFailures.add("401 /api/v1/files");
    await page.getByLabel("Order").selectOption("asc");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("alert").first().textContent()).toBe("Your session has ended: sign in again");
  });
  it("signs in with the admin token as an admin session and signs out", async () => {
    const { page } = chrome.tab;
    await signIn(page, ADMIN_TOKEN);
    await page.getByRole("heading", { name: "Workspaces" }).waitFor();
    expect(await page.locator(".topbar__who").textContent()).toBe("Admin");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
  });
  it("scrolls a 100,000-file list to its end fetching only the pages on screen, with few tiles in the page", async () => {
    const { page } = chrome.tab;
    // The list endpoint answered by the test for a workspace of 100,000 files (the server's own
    // answers are tested above): what is checked is the grid's paging and virtualization.
    const requested: number[] = [];
    await page.route(/\/api\/v1\/files\?/, async (route) => {
      const query = new URL(route.request().url()).searchParams;
      const pageNo = Number(query.get("page"));
      const limit = Number(query.get("limit"));
      requested.push(pageNo);
      await route.fulfill({ json: syntheticPage(pageNo, limit, HUGE) });
    });
    await signIn(page, server.keys.private);
    await expect.poll(() => page.locator(".toolbar__count").textContent(), SETTLE).toBe(`${HUGE} files`);
    const grid = page.getByRole("list", { name: "Files" });
    await grid.getByRole("button", { name: /^file-000000\.png/ }).waitFor();

    const scroller = page.locator(".file-grid");
    await scroller.evaluate((element) => {
      element.scrollTop = element.scrollHeight / 2;
    });
    await grid
      .getByRole("button", { name: /^file-05\d{4}\.png/ })
      .first()
      .waitFor();
    await scroller.evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await grid
      .getByRole("button", { name: `file-${String(HUGE - 1).padStart(6, "0")}.png png · 10 KB` })
      .waitFor();
    expect(await page.locator(".file-tile").count()).toBeLessThan(100);
    // The first page, the middle's and the end's (with their neighbours on screen): not the 1,000.
    expect(new Set(requested).size).toBeLessThanOrEqual(8);
    expect(requested).toContain(HUGE / 100);
  });
});

async function signIn(page: Page, secret: string): Promise<void> {
  const field = page.getByLabel("Private key or admin token");
  expect(await field.getAttribute("autocomplete")).toBe("off");
  await field.fill(secret);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** One page of the list endpoint for a workspace of `total` files named file-000000.png…. */
function syntheticPage(page: number, limit: number, total: number) {
  const first = (page - 1) * limit;
  const files = Array.from({ length: Math.max(0, Math.min(limit, total - first)) }, (_, offset) => {
    const index = first + offset;
    const name = `file-${String(index).padStart(6, "0")}.png`;
    return {
      file_no: String(index + 1),
      name,
      thumbanil: null,
      url: `http://127.0.0.1:9/assets/ws/${name}`,
      file_size: 10_240,
      format: "png",
      width: 8,
      height: 8,
      created_at: "2026-11-29T00:00:00.000Z",
      workspace_no: "ws",
      path: name,
      extension: "png",
    };
  });
  return {
    files,
    meta: { page, limit, total, hasNext: first + limit < total, hasPrev: page > 1 },
  };
}
