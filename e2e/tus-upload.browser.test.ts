// examples/tus-upload, built with its own Vite and driven in real Chromium against a real
// trove-server: Uppy (Dashboard + tus plugin) and tus-js-client, unchanged, upload a ~6 MB file to
// /api/v1/tus with the public key; the page shows the file_no from Trove-File-No, and the file is an
// ordinary Trove file with the same bytes. Then, for each client, an upload cut off by a reload
// half-way resumes from the offset Trove kept (a HEAD, then a PATCH from a non-zero offset).
// Runs with TROVE_BROWSER_TESTS=1.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { throttleUploads } from "@trove/test-support/browser/chromium";
import { startExampleSite } from "@trove/test-support/browser/example-site";
import type { StaticServer } from "@trove/test-support/browser/static-server";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient } from "./support/admin-client.js";
import { digestOf, downloadSha256 } from "./support/page-assertions.js";
import { logTusExchanges, type TusClientDriver, tusJsDriver, uppyDriver } from "./tus-upload-page.js";

const EXAMPLE = fileURLToPath(new URL("../examples/tus-upload", import.meta.url));
const FOLDER = "tus-example";
const SIZE = 6_000_000;
/** Slow enough that a reload lands in the middle of the one PATCH of a 6 MB file. */
const THROTTLED_BYTES_PER_SECOND = 512 * 1024;

describe("examples/tus-upload in Chromium", () => {
  const server = useServerProcess();
  let site: StaticServer;
  let workDir: string;
  const endpoint = () => `${server.baseUrl}/api/v1/tus`;

  beforeAll(async () => {
    site = await startExampleSite(EXAMPLE, server, { VITE_TROVE_FOLDER: FOLDER });
    workDir = await mkdtemp(join(tmpdir(), "trove-tus-files-"));
  });
  afterAll(async () => {
    await site?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const chrome = useChromium({ startAt: () => `${site.url}/` });

  /** Random bytes on disk: Chromium reads the file itself, and its modification time stays fixed. */
  async function randomFile(name: string): Promise<{ path: string; bytes: Uint8Array }> {
    const path = join(workDir, name);
    const bytes = randomBytes(SIZE);
    await writeFile(path, bytes);
    return { path, bytes };
  }

  /** The file the page named is in FOLDER under its own name, with exactly `bytes`. */
  async function expectStored(
    shown: { fileNo: string; href: string | null },
    name: string,
    bytes: Uint8Array,
  ) {
    const file = await adminClient(server).files.get(shown.fileNo);
    expect(file).toMatchObject({ file_no: shown.fileNo, name, size: SIZE });
    expect(file.folder?.name).toBe(FOLDER);
    // The link comes from Trove-File-Url: the file's delivery URL.
    expect(shown.href).toBe(file.url);
    expect(await downloadSha256(file.url)).toEqual(digestOf(bytes));
  }

  describe.each([uppyDriver, tusJsDriver])("$name", (client: TusClientDriver) => {
    it("uploads a 6 MB file over tus and shows its file_no", async () => {
      const { page } = chrome.tab;
      const log = logTusExchanges(page, endpoint());
      const { exchanges } = log;
      const name = `${client.name}-whole.bin`;
      const { path, bytes } = await randomFile(name);

      await client.choose(page, path);
      const shown = await client.finished(page);

      await expectStored(shown, name, bytes);
      await log.settled();
      // It went over tus: one creation, then PATCHes to the URL Trove gave.
      const created = exchanges.filter((exchange) => exchange.method === "POST");
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({ status: 201 });
      const patches = exchanges.filter((exchange) => exchange.method === "PATCH");
      expect(patches.length).toBeGreaterThan(0);
      for (const patch of patches) expect(patch.url).toBe(created[0]!.location);
      expect(patches.at(-1)).toMatchObject({ status: 204, responseOffset: SIZE });
    });

    it("resumes after a reload half-way from the offset Trove kept", async () => {
      const { page } = chrome.tab;
      const log = logTusExchanges(page, endpoint());
      const { exchanges } = log;
      const name = `${client.name}-resumed.bin`;
      const { path, bytes } = await randomFile(name);

      await throttleUploads(page, THROTTLED_BYTES_PER_SECOND);
      await client.choose(page, path);
      await client.waitForProgress(page, 30);
      await log.settled();
      const before = exchanges.length;
      const created = exchanges.find((exchange) => exchange.method === "POST");
      expect(created?.location, "the upload was created before the reload").toBeDefined();

      // The reload cuts the PATCH off mid-body; Trove keeps what arrived. The throttle stays on:
      // the rest (at most 70%) goes up at the same pace.
      await page.reload();
      await client.choose(page, path);
      const shown = await client.finished(page);

      await expectStored(shown, name, bytes);
      await log.settled();
      const after = exchanges.slice(before);
      expect(
        after.filter((exchange) => exchange.method === "POST"),
        "no new upload after the reload",
      ).toEqual([]);
      const head = after.find((exchange) => exchange.method === "HEAD");
      expect(head, "the client asked Trove for the offset").toMatchObject({
        url: created!.location,
        status: 200,
      });
      const resumedAt = head!.responseOffset ?? 0;
      expect(resumedAt).toBeGreaterThan(0);
      expect(resumedAt).toBeLessThan(SIZE);
      const firstPatch = after.find((exchange) => exchange.method === "PATCH");
      expect(firstPatch).toMatchObject({ url: created!.location, requestOffset: resumedAt });
      expect(after.at(-1)).toMatchObject({ method: "PATCH", status: 204, responseOffset: SIZE });
    });
  });

  it("refuses to start when built with a private key, and sends it nowhere", async () => {
    const { page } = chrome.tab;
    const misconfigured = await startExampleSite(EXAMPLE, server, {
      VITE_TROVE_PUBLIC_KEY: server.keys.private,
    });
    try {
      const toServer: string[] = [];
      page.on("request", (request) => {
        if (request.url().startsWith(server.baseUrl)) toServer.push(`${request.method()} ${request.url()}`);
      });
      await page.goto(`${misconfigured.url}/`);
      await expect
        .poll(() => page.getByRole("alert").textContent())
        .toContain("VITE_TROVE_PUBLIC_KEY must be a public key");
      // Neither client was mounted: no Dashboard, and the file input starts nothing.
      expect(await page.locator("#uppy .uppy-Dashboard").count()).toBe(0);
      await page
        .locator("#tus-file")
        .setInputFiles({ name: "x.bin", mimeType: "application/octet-stream", buffer: Buffer.from("x") });
      expect(toServer).toEqual([]);
    } finally {
      await misconfigured.close();
    }
  });
});
