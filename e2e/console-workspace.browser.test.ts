// The console's workspace views (apps/console: Library | Settings | Usage) in Chromium against a
// real trove-server over loopback: hash navigation, deep links and back/forward; sources created
// and edited in the page and served from loopback origins the test runs (a web server and a fake
// S3 endpoint that records which access key signed each read); an upload token minted in the page,
// shown once and accepted by the API; usage figures equal to the API's; search by tags and path;
// axe (light and dark) on every view; a keyboard-only path. The server trusts 127.0.0.0/8 for
// origin reads only because this test's origins are on loopback. Screenshots go to
// e2e/.artifacts/console-workspace/. Runs with TROVE_BROWSER_TESTS=1.
import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { TroveClient } from "@trove/sdk";
import { createAdminClient, createUploadClient } from "@trove/sdk/node";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { viteBuild } from "@trove/test-support/browser/vite-build";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminClient } from "./support/admin-client.js";
import { expectNoSeriousAxe, screenshots } from "./support/console-page-checks.js";
import { gradientPng } from "./support/png.js";

const CONSOLE_APP = fileURLToPath(new URL("../apps/console", import.meta.url));
const ARTIFACTS = fileURLToPath(new URL("./.artifacts/console-workspace", import.meta.url));
const EXPECTED_401 =
  "console.error: Failed to load resource: the server responded with a status of 401 (Unauthorized)";
const EXPECTED_400 =
  "console.error: Failed to load resource: the server responded with a status of 400 (Bad Request)";
/** The fake S3 endpoint's credentials: the access key id is visible in each SigV4 Authorization header. */
const ACCESS_KEY = `AKIA${randomBytes(8).toString("hex").toUpperCase()}`;
const SECRET_KEY = randomBytes(20).toString("base64");
const ORIGIN_PNG = gradientPng(40, 30);
const ADMIN_TOKEN = randomBytes(32).toString("hex");

/** Loopback origins: `/site/...` a plain web server, `/bucket/...` a path-style S3 endpoint. */
interface Origins {
  server: Server;
  url: string;
  /** The Authorization header of each read of `/bucket/...`. */
  s3Authorizations: string[];
}

async function startOrigins(): Promise<Origins> {
  const s3Authorizations: string[] = [];
  const serve = (path: string, headers: IncomingHttpHeaders) => {
    if (path.startsWith("/bucket/")) s3Authorizations.push(headers.authorization ?? "");
    return path === "/site" || path === "/site/" || path.endsWith("/photo.png");
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://origin").pathname;
    if (!serve(path, request.headers)) {
      // S3's own answer for an absent object under /bucket (the source test asks for one).
      if (path.startsWith("/bucket/")) {
        response
          .writeHead(404, { "content-type": "application/xml" })
          .end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>none</Message></Error>',
          );
        return;
      }
      response.writeHead(404, { "content-type": "text/plain" }).end("<b>not here</b>");
      return;
    }
    const body = path.endsWith(".png") ? ORIGIN_PNG : Buffer.from("<p>origin</p>");
    response
      .writeHead(200, {
        "content-type": path.endsWith(".png") ? "image/png" : "text/html",
        "content-length": String(body.length),
        etag: '"origin-1"',
        "last-modified": new Date(0).toUTCString(),
      })
      .end(request.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, s3Authorizations };
}

describe("the console's workspace views in Chromium", () => {
  let server: ServerProcess;
  let consoleDir: string;
  let api: TroveClient;
  let origins: Origins;
  let workspaceNo: string;

  beforeAll(async () => {
    origins = await startOrigins();
    consoleDir = await viteBuild(CONSOLE_APP, {});
    // Loopback is trusted for origin reads here only: the test's origins listen on 127.0.0.1.
    server = await startServerProcess({
      TROVE_CONSOLE_DIR: consoleDir,
      TROVE_ADMIN_TOKEN: ADMIN_TOKEN,
      TROVE_TRUSTED_RANGES: "127.0.0.0/8",
    });
    api = adminClient(server);
    for (const [name, tags, folder] of [
      ["red-shoe.png", ["shoes", "red"], "catalogue/shoes"],
      ["blue-shoe.png", ["shoes", "blue"], "catalogue/shoes"],
      ["red-hat.png", ["hats", "red"], "catalogue/hats"],
      ["archived.png", [], "archive/2026"],
      ["loose-1.png", [], undefined],
      ["loose-2.png", [], undefined],
    ] as const) {
      await api.upload(gradientPng(24, 24), {
        fileName: name,
        tags: [...tags],
        ...(folder ? { folder } : {}),
      });
    }
    workspaceNo = (await api.files.list({ limit: 1 })).files[0]!.workspace_no;
    await mkdir(ARTIFACTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => origins?.server.close(resolve));
    if (consoleDir) await rm(consoleDir, { recursive: true, force: true });
  });

  // Every answer of 400 or more the page gets must be one the test expects.
  const failedAnswers: string[] = [];
  const expectedFailures = new Set<string>();
  const chrome = useChromium({
    startAt: () => `${server.baseUrl}/console`,
    afterEachTest: (tab) => {
      expect(tab.pageErrors.filter((error) => error !== EXPECTED_401 && error !== EXPECTED_400)).toEqual([]);
      expect(failedAnswers.filter((answer) => !expectedFailures.has(answer))).toEqual([]);
      failedAnswers.length = 0;
      expectedFailures.clear();
    },
  });
  beforeEach(() => {
    chrome.tab.page.on("response", (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname !== "/console/api/session")
        failedAnswers.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
  });

  it("navigates by links with aria-current, deep-links, and follows back and forward", async () => {
    const { page } = chrome.tab;
    await signIn(page, server.keys.private);
    const nav = page.getByRole("navigation", { name: "Workspace" });
    await page.getByRole("list", { name: "Files" }).waitFor();
    expect(await nav.getByRole("link", { name: "Library" }).getAttribute("aria-current")).toBe("page");

    await nav.getByRole("link", { name: "Usage" }).click();
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe("#/usage");
    expect(await nav.getByRole("link", { name: "Usage" }).getAttribute("aria-current")).toBe("page");
    expect(await nav.getByRole("link", { name: "Library" }).getAttribute("aria-current")).toBeNull();

    await nav.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Sources", level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe("#/settings/sources");
    await nav.getByRole("link", { name: "Upload tokens" }).click();
    await page.getByRole("heading", { name: "Upload tokens", level: 1 }).waitFor();
    expect(await nav.getByRole("link", { name: "Upload tokens" }).getAttribute("aria-current")).toBe("page");
    expect(await nav.getByRole("link", { name: "Settings" }).getAttribute("aria-current")).toBe("page");

    await page.goBack();
    await page.getByRole("heading", { name: "Sources", level: 1 }).waitFor();
    await page.goBack();
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();
    await page.goForward();
    await page.getByRole("heading", { name: "Sources", level: 1 }).waitFor();

    // A deep link opens its view straight after the session is read (the cookie is still alive).
    await page.goto(`${server.baseUrl}/console#/settings/upload-tokens`);
    await page.getByRole("heading", { name: "Upload tokens", level: 1 }).waitFor();
    await page.goto(`${server.baseUrl}/console#/usage`);
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();
    expect(await page.title()).toBe("Usage · Trove console");
    // An unknown route shows the library.
    await page.goto(`${server.baseUrl}/console#/nowhere`);
    await page.getByRole("list", { name: "Files" }).waitFor();
  });

  it("creates a web-server source whose delivery URL (copied) serves the origin's object", async () => {
    const { page } = chrome.tab;
    await signIn(page, server.keys.private);
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "New source" }).click();
    const form = page.getByRole("form", { name: "New source" });
    // The name field is focused when the form opens.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe("name");
    await form.getByLabel("Name").fill("site-origin");
    await form.getByLabel("Type").selectOption("image_source");
    await form.getByLabel("Base URL (required)").fill(`${origins.url}/site`);
    await form.getByRole("button", { name: "Create source" }).click();
    await page.getByRole("heading", { name: "site-origin", level: 2 }).waitFor();
    const { sources } = await api.sources.list();
    expect(sources.map((source) => [source.name, source.type])).toContainEqual([
      "site-origin",
      "image_source",
    ]);

    // Test connection: the server tries the base URL; its answer is shown as text.
    await page.getByRole("button", { name: "Test connection of site-origin" }).click();
    const tested = page.locator(".source-test").first();
    await expect.poll(() => tested.textContent()).toMatch(/^Connection OK \(status 200, \d+ ms\)$/);

    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    await page.getByRole("button", { name: "Copy the delivery URL of site-origin" }).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`${server.assetsUrl}/${workspaceNo}-site-origin/`);
    const served = await fetch(`${copied}photo.png`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(ORIGIN_PNG)).toBe(true);

    await screenshots(page, ARTIFACTS, "sources");
    await expectNoSeriousAxe(page);
  });

  it("edits an S3 source without retyping its secret: the stored key still signs the origin's reads", async () => {
    const { page } = chrome.tab;
    await signIn(page, server.keys.private);
    await page.goto(`${server.baseUrl}/console#/settings/sources`);
    await page.getByRole("button", { name: "New source" }).click();
    const form = page.getByRole("form", { name: "New source" });
    await form.getByLabel("Name").fill("bucket-origin");
    await form.getByLabel("Type").selectOption("s3");
    await form.getByLabel("Bucket (required)").fill("bucket");
    await form.getByLabel("Region (required)").fill("us-east-1");
    await form.getByLabel("Endpoint").fill(origins.url);
    await form.getByLabel("Access key").fill(ACCESS_KEY);
    await form.getByLabel("Secret key").fill(SECRET_KEY);
    expect(await form.getByLabel("Secret key").getAttribute("type")).toBe("password");
    await form.getByRole("button", { name: "Create source" }).click();
    await page.getByRole("heading", { name: "bucket-origin", level: 2 }).waitFor();

    // The edit form shows the stored fields, never a secret: the secret fields are empty.
    await page.getByRole("button", { name: "Edit bucket-origin" }).click();
    const edit = page.getByRole("form", { name: "Edit source bucket-origin" });
    expect(await edit.getByLabel("Region (required)").inputValue()).toBe("us-east-1");
    expect(await edit.getByLabel("Access key").inputValue()).toBe("");
    expect(await edit.getByLabel("Secret key").inputValue()).toBe("");
    expect(await edit.getByLabel("Secret key").getAttribute("placeholder")).toBe(
      "Stored; leave empty to keep it",
    );
    const html = await page.content();
    expect(html).not.toContain(SECRET_KEY);
    expect(html).not.toContain(ACCESS_KEY);
    await edit.getByLabel("Bucket (required)").fill("bucket");
    await edit.getByLabel("Region (required)").fill("eu-west-1");
    await edit.getByRole("button", { name: "Save source" }).click();
    await page.getByText("Saved source bucket-origin").waitFor();

    const stored = (await api.sources.list()).sources.find((source) => source.name === "bucket-origin")!;
    expect(stored.configuration).toMatchObject({
      region: "eu-west-1",
      access_key: expect.stringMatching(/^\*+$/),
      secret_key: expect.stringMatching(/^\*+$/),
    });
    // The origin read after the edit is signed with the key typed at creation, in the new region.
    origins.s3Authorizations.length = 0;
    const served = await fetch(`${server.assetsUrl}/${workspaceNo}-bucket-origin/photo.png`);
    expect(served.status).toBe(200);
    expect(origins.s3Authorizations.at(-1)).toContain(`Credential=${ACCESS_KEY}/`);
    expect(origins.s3Authorizations.at(-1)).toContain("/eu-west-1/s3/");
    // Test connection signs with the same stored key: the origin's "no such object" proves it.
    origins.s3Authorizations.length = 0;
    await page.getByRole("button", { name: "Test connection of bucket-origin" }).click();
    const tested = page.getByRole("listitem").filter({ hasText: "bucket-origin" }).locator(".source-test");
    await expect.poll(() => tested.textContent()).toMatch(/^Connection OK/);
    expect(origins.s3Authorizations.at(-1)).toContain(`Credential=${ACCESS_KEY}/`);

    // Delete, with a confirm step (Cancel first: it stays).
    await page.getByRole("button", { name: "Delete bucket-origin" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
    expect((await api.sources.list()).sources.some((source) => source.name === "bucket-origin")).toBe(true);
    await page.getByRole("button", { name: "Delete bucket-origin" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await page.getByText("Deleted source bucket-origin").waitFor();
    expect((await api.sources.list()).sources.some((source) => source.name === "bucket-origin")).toBe(false);
  });

  it("shows a failed connection test's status and the origin's message as text", async () => {
    await api.sources.create({
      name: "missing-origin",
      type: "image_source",
      configuration: { base_url: `${origins.url}/missing` },
    });
    const { page } = chrome.tab;
    await signIn(page, server.keys.private);
    await page.goto(`${server.baseUrl}/console#/settings/sources`);
    await page.getByRole("button", { name: "Test connection of missing-origin" }).click();
    const tested = page.getByRole("listitem").filter({ hasText: "missing-origin" }).locator(".source-test");
    await expect.poll(() => tested.textContent()).toMatch(/^Connection failed \(status 404, \d+ ms\)/);
    expect(await tested.locator("b").count()).toBe(0);
    await api.sources.delete(
      (await api.sources.list()).sources.find((source) => source.name === "missing-origin")!.id,
    );
  });

  it("moves the selected files to a folder picked in the tree, all at once", async () => {
    const { page } = chrome.tab;
    await signIn(page, server.keys.private);
    const grid = page.getByRole("list", { name: "Files" });
    await grid.getByRole("button", { name: /^loose-1\.png/ }).waitFor();
    await page.getByRole("checkbox", { name: "Select loose-1.png" }).check();
    await page.getByRole("checkbox", { name: "Select loose-2.png" }).check();
    await page.getByRole("button", { name: "Move selected (2) to folder…" }).click();
    const picker = page.getByRole("region", { name: /^Move 2 files to:/ });
    await picker.getByRole("button", { name: "archive", exact: true }).click();
    await picker.getByRole("button", { name: "2026", exact: true }).click();
    await picker.getByRole("heading", { name: "Move 2 files to: archive/2026" }).waitFor();
    await screenshots(page, ARTIFACTS, "library-move");
    await expectNoSeriousAxe(page);
    await picker.getByRole("button", { name: "Move here (archive/2026)" }).click();
    await picker.waitFor({ state: "hidden" });
    const moved = await api.files.list({ path: "archive/2026" });
    expect(moved.files.map((file) => file.name).sort()).toEqual([
      "archived.png",
      "loose-1.png",
      "loose-2.png",
    ]);
    expect(await page.getByRole("button", { name: /^Move selected/ }).count()).toBe(0);
  });

  it("shows the server's refusal of a source name with markup as text, and creates nothing", async () => {
    const { page } = chrome.tab;
    await signIn(page, server.keys.private);
    await page.goto(`${server.baseUrl}/console#/settings/sources`);
    await page.getByRole("button", { name: "New source" }).click();
    const form = page.getByRole("form", { name: "New source" });
    const markup = '<img src=x onerror="window.pwned=1">';
    await form.getByLabel("Name").fill(markup);
    await form.getByLabel("Base URL (required)").fill(`${origins.url}/site`);
    expectedFailures.add("400 /api/v1/sources");
    await form.getByRole("button", { name: "Create source" }).click();
    const alert = form.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/name/i);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.evaluate(() => "pwned" in window)).toBe(false);
    expect((await api.sources.list()).sources.some((source) => source.name.includes("<"))).toBe(false);
  });

  it("mints an upload token shown once, which the API accepts for an upload within its policy", async () => {
    const { page } = chrome.tab;
    await signIn(page, server.keys.private);
    await page.goto(`${server.baseUrl}/console#/settings/upload-tokens`);
    const form = page.getByRole("form", { name: "Mint an upload token" });
    await form.getByLabel("Expires in (seconds)").fill("900");
    await form.getByLabel("Files it may upload").fill("2");
    await form.getByLabel("Folder", { exact: true }).fill("from-token");
    await form.getByLabel("Largest file (MiB)").fill("1");
    await form.getByLabel("Allowed types").fill("image/*");
    await form.getByLabel("Tags").fill("minted, console");
    await expectNoSeriousAxe(page);
    await form.getByRole("button", { name: "Mint token" }).click();
    const shown = page.getByRole("region", { name: "Your upload token" });
    await shown.getByText("Copy it now: it will not be shown again.").waitFor();
    const token = (await shown.getByLabel("Upload token", { exact: true }).textContent()) ?? "";
    expect(token.length).toBeGreaterThan(20);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    await shown.getByRole("button", { name: "Copy the upload token" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await screenshots(page, ARTIFACTS, "upload-token");
    await expectNoSeriousAxe(page);
    // Nowhere the page keeps things, and gone after a reload.
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
    await page.reload();
    await page.getByRole("heading", { name: "Upload tokens", level: 1 }).waitFor();
    expect(await page.content()).not.toContain(token);

    const uploader = createUploadClient({ token, baseUrl: server.baseUrl });
    const uploaded = await uploader.upload(gradientPng(16, 16), { fileName: "by-token.png" });
    const details = await api.files.get(uploaded.file_no);
    expect(details.folder?.name).toBe("from-token");
    const tagged = await api.files.list({ tags: ["minted", "console"] });
    expect(tagged.files.map((file) => file.file_no)).toEqual([uploaded.file_no]);
    // The policy holds: not an image is refused.
    const refused = await uploader
      .upload(new TextEncoder().encode("text"), { fileName: "note.txt", contentType: "text/plain" })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "TYPE_NOT_ALLOWED" });
  });

  it("shows the API's usage figures, a meter against quotas, and a per-day table", async () => {
    // A files quota (the admin's), so the files total has a meter; storage stays unlimited.
    await createAdminClient({ baseUrl: server.baseUrl, adminToken: ADMIN_TOKEN }).workspaces.update(
      workspaceNo,
      {
        max_files: 1000,
      },
    );
    const { page } = chrome.tab;
    await signIn(page, server.keys.private);
    await page.goto(`${server.baseUrl}/console#/usage`);
    await page.getByRole("heading", { name: "Usage", level: 1 }).waitFor();
    const table = page.getByRole("table");
    await table.waitFor();
    const usage = await api.usage.get({ days: 30 });
    expect(await page.locator("#usage-files-label + dd [data-value]").getAttribute("data-value")).toBe(
      String(usage.files),
    );
    expect(await page.locator("#usage-storage-label + dd [data-value]").getAttribute("data-value")).toBe(
      String(usage.storage_bytes),
    );
    expect(usage.max_files).toBe(1000);
    const meter = page.getByRole("meter", { name: "Files" });
    expect([await meter.getAttribute("value"), await meter.getAttribute("max")]).toEqual([
      String(usage.files),
      "1000",
    ]);
    expect(await page.locator("#usage-files-label + dd [data-quota]").getAttribute("data-quota")).toBe(
      "1000",
    );
    expect(await page.locator("#usage-storage-label + dd").textContent()).toContain("(no quota)");
    expect(await table.locator("tbody tr").count()).toBe(usage.days.length);
    const newest = usage.days.at(-1)!;
    const firstRow = table.locator("tbody tr").first();
    expect(await firstRow.locator("th").textContent()).toBe(newest.date);
    expect(await firstRow.locator("td").first().textContent()).toBe(newest.requests.toLocaleString("en"));
    expect(await firstRow.locator("td[data-bytes]").getAttribute("data-bytes")).toBe(
      String(newest.bytes_served),
    );
    expect(
      await page
        .getByRole("img", { name: /^Requests per day/ })
        .locator("rect")
        .count(),
    ).toBe(usage.days.length);
    await page.getByLabel("Days").selectOption("7");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(7);
    await screenshots(page, ARTIFACTS, "usage");
    await expectNoSeriousAxe(page);
  });

  it("searches the library by tags and by path", async () => {
    const { page } = chrome.tab;
    await signIn(page, server.keys.private);
    const grid = page.getByRole("list", { name: "Files" });
    await grid.getByRole("button", { name: /^loose-2\.png/ }).waitFor();
    await page.getByLabel("Search by tags").fill("red");
    await expect.poll(() => page.locator(".toolbar__count").textContent()).toBe("2 files");
    await page.getByLabel("Search by tags").fill("red, shoes");
    await expect.poll(() => page.locator(".toolbar__count").textContent()).toBe("1 file");
    await grid.getByRole("button", { name: /^red-shoe\.png/ }).waitFor();
    await page.getByLabel("Search by tags").fill("");
    await page.getByLabel("Search by path").fill("catalogue");
    await expect.poll(() => page.locator(".toolbar__count").textContent()).toBe("3 files");
    await page.getByLabel("Search by path").fill("catalogue/hats");
    await expect.poll(() => page.locator(".toolbar__count").textContent()).toBe("1 file");
    await grid.getByRole("button", { name: /^red-hat\.png/ }).waitFor();
    await screenshots(page, ARTIFACTS, "library-search");
    await expectNoSeriousAxe(page);
  });

  it("goes through the navigation and the token form by keyboard only", async () => {
    const { page } = chrome.tab;
    const field = page.getByLabel("Private key or admin token");
    await field.focus();
    await page.keyboard.type(server.keys.private);
    await page.keyboard.press("Enter");
    await page.getByRole("list", { name: "Files" }).waitFor();
    await tabUntil(page, (element) => element.text === "Settings" && element.tag === "A");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Sources", level: 1 }).waitFor();
    await tabUntil(page, (element) => element.text === "Upload tokens" && element.tag === "A");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Upload tokens", level: 1 }).waitFor();
    await tabUntil(page, (element) => element.name === "expires_in");
    await page.keyboard.type("300");
    await tabUntil(page, (element) => element.text === "Mint token");
    await page.keyboard.press("Enter");
    await page.getByText("Copy it now: it will not be shown again.").waitFor();
  });
});

async function signIn(page: Page, secret: string): Promise<void> {
  await page.getByLabel("Private key or admin token").fill(secret);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Workspace" }).waitFor();
}

/** Presses Tab until the focused element matches (at most 60 presses, then fails). */
async function tabUntil(
  page: Page,
  matches: (element: { tag: string; text: string; name: string }) => boolean,
): Promise<void> {
  for (let press = 0; press < 60; press++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return {
        tag: element?.tagName ?? "",
        text: element?.textContent?.trim() ?? "",
        name: element?.getAttribute("name") ?? "",
      };
    });
    if (matches(focused)) return;
  }
  throw new Error("the keyboard never reached the element");
}
