// The console's admin view (apps/console/src/admin) in Chromium against a real trove-server,
// signed in with the admin token: a workspace created (its name, markup, shown as text), a key
// created from the keyboard (shown once, used for an upload, gone after reload, revoked and then
// refused by the API), a max_files quota set in the console and enforced by the API, a webhook
// delivery that failed (the receiver, on loopback, answers 500 first) redelivered with the same
// webhook-id, and named transforms checked by the shared grammar. axe (no serious or critical
// violation, light and dark) and a screenshot per view under e2e/.artifacts/console-admin/.
// Every page error fails the test. Runs with TROVE_BROWSER_TESTS=1, on a PostgreSQL database of
// its own when TROVE_TEST_DATABASE_URL names a server (as in CI's browser stage; the other console
// suites run on the embedded PGlite, so the console is driven on both).
import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createAdminClient, createClient, type TroveAdminClient } from "@trove/sdk";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { viteBuild } from "@trove/test-support/browser/vite-build";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectNoSeriousAxe, screenshots } from "./support/console-page-checks.js";
import { gradientPng } from "./support/png.js";
import { createTestDatabase, type TestDatabase } from "./support/test-database.js";

const CONSOLE_APP = fileURLToPath(new URL("../apps/console", import.meta.url));
const ARTIFACTS = fileURLToPath(new URL("./.artifacts/console-admin", import.meta.url));
const ADMIN_TOKEN = randomBytes(32).toString("hex");
const MARKUP_NAME = "<img src=x onerror=alert(1)> & studio";

/** One request the webhook receiver got. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

describe("the console's admin view in Chromium", () => {
  let server: ServerProcess;
  let database: TestDatabase | undefined;
  let consoleDir: string;
  let admin: TroveAdminClient;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];

  beforeAll(async () => {
    // The webhook receiver: 500 to the first request, 200 after, so one delivery fails.
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
        response.writeHead(received.length === 1 ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

    consoleDir = await viteBuild(CONSOLE_APP, {});
    const postgres = process.env.TROVE_TEST_DATABASE_URL;
    database = postgres ? createTestDatabase(postgres, "console_admin") : undefined;
    server = await startServerProcess({
      ...(database ? { DATABASE_URL: database.url } : {}),
      TROVE_CONSOLE_DIR: consoleDir,
      TROVE_ADMIN_TOKEN: ADMIN_TOKEN,
      // Loopback is private: only this test's server may deliver webhooks to its receiver there.
      TROVE_TRUSTED_RANGES: "127.0.0.0/8",
      // One attempt: the receiver's 500 ends the delivery as failed, for the console to show.
      TROVE_WEBHOOK_MAX_ATTEMPTS: "1",
      TROVE_JOB_POLL_INTERVAL_MS: "100",
    });
    admin = createAdminClient({ baseUrl: server.baseUrl, adminToken: ADMIN_TOKEN });
    await mkdir(ARTIFACTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    database?.drop();
    await new Promise((resolve) => receiver?.close(resolve));
    if (consoleDir) await rm(consoleDir, { recursive: true, force: true });
  });

  // Chromium logs every 4xx answer as a console error: only the signed-out session read is
  // expected; every other failed answer and page error fails the test.
  const failedAnswers: string[] = [];
  /** Refusals a test provokes on purpose (`<status> <path>`). */
  const expectedFailures = new Set<string>();
  const chrome = useChromium({
    startAt: () => `${server.baseUrl}/console`,
    afterEachTest: (tab) => {
      // Chromium logs each failed answer as a console error; those are judged one by one, with
      // their paths, by `failedAnswers` below. Every other page error fails the test.
      expect(
        tab.pageErrors.filter(
          (error) => !error.startsWith("console.error: Failed to load resource: the server responded with"),
        ),
      ).toEqual([]);
      // The first session read answers 401 (signed out) when the tab opens on /console.
      const unexpected = failedAnswers.filter(
        (answer) => answer !== "401 /console/api/session" && !expectedFailures.has(answer),
      );
      failedAnswers.length = 0;
      expectedFailures.clear();
      expect(unexpected).toEqual([]);
    },
  });
  beforeEach(() => {
    chrome.tab.page.on("response", (response) => {
      if (response.status() >= 400)
        failedAnswers.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
  });

  /** Signs in with the admin token and waits for the workspaces table. */
  async function signInAsAdmin(page: Page): Promise<void> {
    await page.getByLabel("Private key or admin token").fill(ADMIN_TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Workspaces" }).waitFor();
  }

  /** Creates a workspace in the console; answers its number, read from its row. */
  async function createWorkspace(page: Page, name: string): Promise<string> {
    await page.getByLabel("New workspace name").fill(name);
    await page.getByRole("button", { name: "Create workspace" }).click();
    const row = page
      .locator("tr[data-workspace]")
      .filter({ has: page.getByRole("link", { name, exact: true }) });
    await row.waitFor();
    const workspaceNo = await row.getAttribute("data-workspace");
    expect(workspaceNo).toMatch(/^[a-z0-9]+$/);
    return workspaceNo as string;
  }

  it("creates a workspace named with markup (shown as text) and a key from the keyboard: shown once, used, listed without its secret, revoked", async () => {
    const { page } = chrome.tab;
    await signInAsAdmin(page);
    const workspaceNo = await createWorkspace(page, MARKUP_NAME);
    expect((await admin.workspaces.get(workspaceNo)).name).toBe(MARKUP_NAME);
    // The name is text: no element was made of it.
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.getByRole("link", { name: MARKUP_NAME, exact: true }).textContent()).toBe(MARKUP_NAME);
    await expectNoSeriousAxe(page);
    await screenshots(page, ARTIFACTS, "workspaces");

    // Into the workspace: its keys, a deep link.
    await page.getByRole("link", { name: MARKUP_NAME, exact: true }).click();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/admin/workspaces/${workspaceNo}/keys`);
    expect(await page.locator('img[src="x"]').count()).toBe(0);

    // Keyboard only: Tab to the name field, type, Enter submits; focus lands on the new key,
    // Tab reaches Copy, Enter copies.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    await page.locator("body").focus();
    await tabUntil(page, "Key name");
    await page.keyboard.type("uploader");
    await page.keyboard.press("Enter");
    const secret = page.getByLabel("The new key", { exact: true });
    await secret.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("New key uploader");
    expect(await page.getByText("it will not be shown again").count()).toBe(1);
    const key = (await secret.textContent()) ?? "";
    expect(key).toMatch(/^trove_sk_/);
    await tabUntil(page, "Copy the new key");
    await page.keyboard.press("Enter");
    await page.getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectNoSeriousAxe(page);
    await screenshots(page, ARTIFACTS, "key-created");

    // The key works against the API.
    const client = createClient({ apiKey: key, baseUrl: server.baseUrl });
    const file = await client.upload(gradientPng(16, 16), { fileName: "with-the-new-key.png" });
    expect(file.file_no).toBeTruthy();

    // After a reload the secret is nowhere on the page; the key is listed by its prefix.
    await page.reload();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    const row = page.locator("tr").filter({ has: page.getByRole("rowheader", { name: "uploader" }) });
    await row.waitFor();
    expect(await page.getByLabel("The new key", { exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    const prefix = (await row.locator("code").textContent()) ?? "";
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(key.length);

    // Revoke, confirmed: the API refuses the key from then on.
    await row.getByRole("button", { name: "Revoke uploader" }).click();
    await row.getByRole("button", { name: "Confirm revoke" }).click();
    await row.getByRole("cell", { name: "Revoked" }).waitFor();
    const refused = await client.files.list().then(
      () => null,
      (error: unknown) => error as { status?: number },
    );
    expect(refused?.status).toBe(401);
  }, 120_000);

  it("sets max_files in the console; the API refuses an upload past it with 403 QUOTA_EXCEEDED; the table shows the count", async () => {
    const { page } = chrome.tab;
    await signInAsAdmin(page);
    const workspaceNo = await createWorkspace(page, "Quota test");
    const { key } = await admin.keys.create(workspaceNo, { type: "private", name: "quota" });
    const client = createClient({ apiKey: key, baseUrl: server.baseUrl });

    await page.goto(`${server.baseUrl}/console#/admin/workspaces/${workspaceNo}/settings`);
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    await page.getByLabel("Max files (empty: no limit)").fill("1");
    await page.getByLabel("Max storage (empty: no limit)").fill("2");
    await page.getByLabel("Storage unit").selectOption("MiB");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Saved", { exact: true }).waitFor();
    const saved = await admin.workspaces.get(workspaceNo);
    expect([saved.max_files, saved.max_storage_bytes]).toEqual([1, 2 * 1024 * 1024]);
    await expectNoSeriousAxe(page);
    await screenshots(page, ARTIFACTS, "settings");

    await client.upload(gradientPng(8, 8), { fileName: "first.png" });
    const refused = await client.upload(gradientPng(8, 9), { fileName: "second.png" }).then(
      () => null,
      (error: unknown) => error as { status?: number; code?: string },
    );
    expect([refused?.status, refused?.code]).toEqual([403, "QUOTA_EXCEEDED"]);

    await page.getByRole("link", { name: "← All workspaces" }).click();
    const row = page.locator(`tr[data-workspace="${workspaceNo}"]`);
    await expect.poll(() => row.locator(".admin__files").textContent()).toBe("1 / 1");
  }, 120_000);

  it("shows a failed webhook delivery with the receiver's status and redelivers it with the same webhook-id", async () => {
    const { page } = chrome.tab;
    await signInAsAdmin(page);
    const workspaceNo = await createWorkspace(page, "Webhooks test");
    await page.goto(`${server.baseUrl}/console#/admin/workspaces/${workspaceNo}/webhooks`);
    await page.getByLabel("Endpoint URL").fill(receiverUrl);
    await page.getByLabel("Events (comma separated; * for all)").fill("file.uploaded");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page
      .getByRole("region", { name: "Webhook endpoints" })
      .getByText(receiverUrl, { exact: true })
      .waitFor();
    expect((await admin.webhooks.endpoints.list(workspaceNo)).map((endpoint) => endpoint.url)).toEqual([
      receiverUrl,
    ]);

    const { key } = await admin.keys.create(workspaceNo, { type: "private" });
    await createClient({ apiKey: key, baseUrl: server.baseUrl }).upload(gradientPng(8, 8), {
      fileName: "hooked.png",
    });
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);

    const deliveries = page.locator("tr[data-delivery-id]");
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "Refresh deliveries" }).click();
          return deliveries.first().getAttribute("data-status");
        },
        { timeout: 30_000 },
      )
      .toBe("failed");
    const failed = deliveries.first();
    expect(await failed.locator("td").nth(2).textContent()).toBe("500");
    await expectNoSeriousAxe(page);
    await screenshots(page, ARTIFACTS, "webhooks");

    await failed.getByRole("button", { name: /^Redeliver/ }).click();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
    expect(received[1]?.headers["webhook-id"]).toBe(received[0]?.headers["webhook-id"]);
    expect(received[1]?.body).toBe(received[0]?.body);
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "Refresh deliveries" }).click();
          return deliveries.first().getAttribute("data-status");
        },
        { timeout: 30_000 },
      )
      .toBe("succeeded");
    expect(await deliveries.first().locator("td").nth(2).textContent()).toBe("200");

    // A one-off webhook_url of an upload is delivered beside the endpoint: the filter by endpoint
    // leaves it out.
    const oneOff = receiverUrl.replace(/\/hooks$/, "/one-off");
    await createClient({ apiKey: key, baseUrl: server.baseUrl }).upload(gradientPng(8, 9), {
      fileName: "hooked-again.png",
      webhookUrl: oneOff,
    });
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(4);
    await expect
      .poll(async () => {
        await page.getByRole("button", { name: "Refresh deliveries" }).click();
        return deliveries.count();
      })
      .toBe(4);
    await page.getByLabel("Show deliveries to").selectOption({ label: receiverUrl });
    await expect.poll(() => deliveries.count()).toBe(3);
    expect(await deliveries.locator("td:first-of-type").allTextContents()).toEqual([
      receiverUrl,
      receiverUrl,
      receiverUrl,
    ]);

    // Rotating the secret shows the new one once, after a confirmation.
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByRole("button", { name: "Confirm rotate" }).click();
    const shown = (await page.getByLabel("The new webhook secret", { exact: true }).textContent()) ?? "";
    expect(shown).toBe((await admin.webhooks.secret(workspaceNo)).secret);
    await page.getByRole("button", { name: "Done" }).click();
    expect(await page.content()).not.toContain(shown);
  }, 120_000);

  it("checks named transforms with the shared grammar, previews one on a file path, saves, edits and deletes it", async () => {
    const { page } = chrome.tab;
    await signInAsAdmin(page);
    const workspaceNo = await createWorkspace(page, "Transforms test");
    const { key } = await admin.keys.create(workspaceNo, { type: "private" });
    const file = await createClient({ apiKey: key, baseUrl: server.baseUrl }).upload(gradientPng(200, 100), {
      fileName: "wide.png",
    });

    await page.goto(`${server.baseUrl}/console#/admin/workspaces/${workspaceNo}/transforms`);
    await page.getByRole("heading", { name: "Named transforms" }).first().waitFor();
    await page.getByLabel("Transform name (without t_)").fill("thumb");
    const transform = page.getByLabel("Transform", { exact: true });
    await transform.fill("w_abc");
    await page.locator("form p.error").waitFor();
    expect(await page.getByRole("button", { name: "Create transform" }).isDisabled()).toBe(true);
    await transform.fill("w_50,h_50,c_fill");
    await page.getByLabel("Preview on file path").fill(file.path ?? "wide.png");
    const preview = page.locator(".admin__preview img");
    const size = await page.waitForFunction(
      (img) =>
        img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0
          ? [img.naturalWidth, img.naturalHeight]
          : null,
      await preview.elementHandle(),
    );
    expect(await size.jsonValue()).toEqual([50, 50]);
    await page.getByRole("button", { name: "Create transform" }).click();
    await page.getByRole("rowheader", { name: "t_thumb" }).waitFor();
    expect((await admin.transforms.list(workspaceNo)).map((named) => named.name)).toEqual(["thumb"]);
    await expectNoSeriousAxe(page);
    await screenshots(page, ARTIFACTS, "transforms");

    await page.getByRole("button", { name: "Edit t_thumb" }).click();
    await transform.fill("w_40");
    await page.getByRole("button", { name: "Save transform" }).click();
    await expect.poll(async () => (await admin.transforms.list(workspaceNo))[0]?.transform).toBe("w_40");

    await page.getByRole("button", { name: "Delete t_thumb" }).click();
    await page.getByRole("button", { name: "Confirm delete" }).click();
    await page.getByText("No named transforms yet.").waitFor();
    expect(await admin.transforms.list(workspaceNo)).toEqual([]);
  }, 120_000);

  it("shows why bad input is refused, as text: a policy that is not JSON or breaks the schema, an expiry in the past", async () => {
    const { page } = chrome.tab;
    await signInAsAdmin(page);
    const workspaceNo = await createWorkspace(page, "Bad input");
    await page.goto(`${server.baseUrl}/console#/admin/workspaces/${workspaceNo}/keys`);
    const form = page.getByRole("form", { name: "Create a key" });
    await form.getByLabel("Key type").selectOption("public");
    const policy = form.getByLabel("Upload policy (JSON, optional)");
    await policy.fill("{not json");
    await form.getByRole("button", { name: "Create key" }).click();
    expect(await form.getByRole("alert").textContent()).toBe("The upload policy is not JSON");
    await policy.fill('{"max_file_size": -1, "note": "<b>x</b>"}');
    await form.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => form.getByRole("alert").textContent()).toMatch(/^Upload policy: /);
    expect(await form.locator("b").count()).toBe(0);

    // The server's own refusal: an expiry that has passed (400, its message shown).
    await policy.fill("");
    await form.getByLabel("Expires (optional)").fill("2020-01-01T00:00");
    expectedFailures.add(`400 /admin/v1/workspaces/${workspaceNo}/keys`);
    await form.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => form.getByRole("alert").textContent()).toMatch(/future/);
    expect(await admin.keys.list(workspaceNo)).toEqual([]);
    expect(await page.getByLabel("The new key", { exact: true }).count()).toBe(0);
  }, 120_000);

  it("deletes a workspace only once its number is typed, and disables and enables one", async () => {
    const { page } = chrome.tab;
    await signInAsAdmin(page);
    const workspaceNo = await createWorkspace(page, "Short lived");
    const row = page.locator(`tr[data-workspace="${workspaceNo}"]`);
    await row.getByRole("button", { name: "Disable Short lived" }).click();
    await row.getByRole("cell", { name: "Disabled" }).waitFor();
    expect((await admin.workspaces.get(workspaceNo)).disabled_at).not.toBeNull();
    await row.getByRole("button", { name: "Enable Short lived" }).click();
    await row.getByRole("cell", { name: "Active" }).waitFor();

    // Escape closes the question and gives focus back to the button that asked it.
    await row.getByRole("button", { name: "Delete Short lived" }).click();
    await page.keyboard.press("Escape");
    await page.getByRole("alertdialog").waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Delete Short lived",
    );
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog");
    const confirm = dialog.getByRole("button", { name: "Delete workspace" });
    await dialog.getByLabel("Workspace number").fill(`${workspaceNo}x`);
    expect(await confirm.isDisabled()).toBe(true);
    await expectNoSeriousAxe(page);
    await dialog.getByLabel("Workspace number").fill(workspaceNo);
    await confirm.click();
    await row.waitFor({ state: "detached" });
    const gone = await admin.workspaces.get(workspaceNo).then(
      () => null,
      (error: unknown) => error as { status?: number },
    );
    expect(gone?.status).toBe(404);
  }, 120_000);
});

/** Presses Tab (at most 60 times) until the focused element's accessible name (label or aria-label) is `name`. */
async function tabUntil(page: Page, name: string): Promise<void> {
  for (let step = 0; step < 60; step += 1) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element) return null;
      const labels = element instanceof HTMLInputElement ? element.labels : null;
      return element.getAttribute("aria-label") ?? labels?.[0]?.textContent ?? null;
    });
    if (focused === name) return;
  }
  throw new Error(`Tab never reached ${name}`);
}
