// The browser SDK (`@trove/sdk/upload`) in real Chromium against the real server. The page is
// served from its own loopback origin, so every API call and part PUT is a cross-origin request
// and goes through the server's CORS handling, as it would from a customer's site. The page makes
// the bytes and hashes them with crypto.subtle; Node downloads the stored file from the delivery
// host and compares. Runs with TROVE_BROWSER_TESTS=1 (see vitest.config.ts).
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { useChromium } from "@trove/test-support/browser/browser-per-file";
import { throttleUploads } from "@trove/test-support/browser/chromium";
import { type StaticServer, startStaticServer } from "@trove/test-support/browser/static-server";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  HarnessFailure,
  HarnessReport,
  HarnessUploadOptions,
} from "./support/browser-upload-harness.js";
import { downloadSha256, expectProgressToComplete } from "./support/page-assertions.js";
import { bundleForBrowser } from "./support/sdk-bundle.js";

const HARNESS = fileURLToPath(new URL("./support/browser-upload-harness.ts", import.meta.url));
const MIB = 1024 * 1024;
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Trove browser e2e</title>
<script src="/harness.js"></script></head><body>browser e2e</body></html>`;

const corsHeaders = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "*",
  "access-control-allow-methods": "GET, POST, PUT, DELETE, OPTIONS",
  "access-control-expose-headers": "*",
};

/** A loopback HTTP server for the redirect test. */
async function listen(handler: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("@trove/sdk/upload in Chromium against trove-server", () => {
  const server = useServerProcess();
  let site: StaticServer;

  beforeAll(async () => {
    site = await startStaticServer({
      files: {
        "/": { type: "text/html; charset=utf-8", body: PAGE },
        "/harness.js": { type: "text/javascript; charset=utf-8", body: await bundleForBrowser(HARNESS) },
      },
    });
  });
  afterAll(async () => {
    await site?.close();
  });

  const chrome = useChromium({ startAt: () => `${site.url}/` });

  async function upload(
    options: Omit<HarnessUploadOptions, "baseUrl" | "apiKey"> & { apiKey?: string; baseUrl?: string },
  ): Promise<HarnessReport | HarnessFailure> {
    const args: HarnessUploadOptions = { baseUrl: server.baseUrl, apiKey: server.keys.public, ...options };
    return chrome.tab.page.evaluate((o) => window.troveHarness.upload(o), args);
  }

  async function uploadOk(options: Parameters<typeof upload>[0]): Promise<HarnessReport> {
    const report = await upload(options);
    if (!report.ok) {
      throw new Error(
        `upload failed in the page: ${JSON.stringify(report)}\npage: ${chrome.tab.pageErrors.join("\n")}\nserver: ${server.output()}`,
      );
    }
    return report;
  }

  it("a 12 MiB File goes up in parts with byte-level progress and comes back byte-exact", async () => {
    const size = 12 * MIB;
    // On unthrottled loopback a 4 MiB part can leave in one progress tick, so the bytes-as-they-
    // leave assertion below would depend on timing; at 16 MiB/s each part takes ~250 ms.
    await throttleUploads(chrome.tab.page, 16 * MIB);
    const report = await uploadOk({ size, fileName: "browser-multipart.bin" });

    expect(report.result).toMatchObject({ name: "browser-multipart.bin", size });
    expect(report.result.file_no).toMatch(/^\d+$/);
    expect(report.result.response).toMatchObject({ success: true });
    expectProgressToComplete(report.progress, size);
    // XMLHttpRequest reports bytes as they leave, not only when each part is confirmed.
    const belowTotal = new Set(report.progress.map((p) => p.loaded).filter((loaded) => loaded < size));
    expect(belowTotal.size).toBeGreaterThanOrEqual(3);

    expect(await downloadSha256(report.result.url)).toEqual({ size, sha256: report.sha256 });
  });

  it("a 6 MB File (under the multipart threshold) reports bytes as they go, as one part, byte-exact", async () => {
    const size = 6_000_000;
    // 4 MiB/s: the one part takes ~1.5 s, so XMLHttpRequest reports it in many steps.
    await throttleUploads(chrome.tab.page, 4 * MIB);
    const report = await uploadOk({ size, fileName: "browser-small-session.bin", smallUploads: "session" });

    expect(report.result).toMatchObject({ name: "browser-small-session.bin", size });
    expectProgressToComplete(report.progress, size);
    const belowTotal = new Set(report.progress.map((p) => p.loaded).filter((loaded) => loaded < size));
    expect(belowTotal.size).toBeGreaterThanOrEqual(3);
    expect(await downloadSha256(report.result.url)).toEqual({ size, sha256: report.sha256 });
  });

  it("a 6 MB File can pause and resume, byte-exact", async () => {
    const size = 6_000_000;
    await throttleUploads(chrome.tab.page, 4 * MIB);
    const pauseForMs = 800;
    const report = await uploadOk({
      size,
      fileName: "browser-small-paused.bin",
      pauseForMs,
      smallUploads: "session",
    });

    const { pausedAt, resumedAt, pausedFlag } = report.pause!;
    expect(pausedFlag).toBe(true);
    const duringPause = report.progress.filter((p) => p.at > pausedAt + 150 && p.at < resumedAt);
    expect(duringPause).toEqual([]);
    expectProgressToComplete(report.progress, size);
    expect(await downloadSha256(report.result.url)).toEqual({ size, sha256: report.sha256 });
  });

  it("with smallUploads: direct, a small File goes up in one request and comes back byte-exact", async () => {
    const size = 300 * 1024 + 7;
    const report = await uploadOk({ size, fileName: "browser-direct.bin", smallUploads: "direct" });

    expect(report.result).toMatchObject({ name: "browser-direct.bin", size, upload_source: "direct" });
    expectProgressToComplete(report.progress, size);
    expect(await downloadSha256(report.result.url)).toEqual({ size, sha256: report.sha256 });
  });

  it("pause stops the bytes, resume finishes the upload byte-exact", async () => {
    const size = 12 * MIB;
    const pauseForMs = 800;
    const report = await uploadOk({ size, fileName: "browser-paused.bin", pauseForMs });

    expect(report.pause).toBeDefined();
    const { pausedAt, resumedAt, pausedFlag } = report.pause!;
    expect(pausedFlag).toBe(true);
    expect(resumedAt - pausedAt).toBeGreaterThanOrEqual(pauseForMs - 50);
    // Parts in flight are aborted at pause: after a short grace nothing reports until resume.
    const duringPause = report.progress.filter((p) => p.at > pausedAt + 150 && p.at < resumedAt);
    expect(duringPause).toEqual([]);
    expectProgressToComplete(report.progress, size);
    expect(await downloadSha256(report.result.url)).toEqual({ size, sha256: report.sha256 });
  });

  it("an API that redirects never receives the key at the redirect's target, for any size", async () => {
    // The "API" answers preflights as a CORS-enabled API would, then redirects every request to
    // another loopback origin that records what reaches it.
    const reached: { method: string; path: string; key: string | undefined; auth: string | undefined }[] = [];
    const target = await listen((req, res) => {
      reached.push({
        method: req.method ?? "",
        path: req.url ?? "",
        key: req.headers["x-api-key"] as string | undefined,
        auth: req.headers.authorization,
      });
      res.writeHead(200, corsHeaders).end(JSON.stringify({ success: true }));
    });
    const redirector = await listen((req, res) => {
      if (req.method === "OPTIONS") res.writeHead(204, corsHeaders).end();
      else res.writeHead(307, { ...corsHeaders, location: `${target.url}${req.url}` }).end();
    });
    try {
      for (const [size, smallUploads] of [
        [1000, "direct"],
        [6_000_000, "session"],
        [12 * MIB, "session"],
      ] as const) {
        const report = await upload({
          size,
          fileName: "redirected.bin",
          baseUrl: redirector.url,
          smallUploads,
        });
        expect(report).toMatchObject({ ok: false });
      }
      expect(reached.filter((request) => request.key !== undefined || request.auth !== undefined)).toEqual(
        [],
      );
    } finally {
      await Promise.all([target.close(), redirector.close()]);
    }
  });

  it("an unknown key fails with the request id readable across origins", async () => {
    const report = await upload({ size: 10, fileName: "denied.bin", apiKey: "trove_pk_unknown" });

    expect(report).toMatchObject({ ok: false, name: "AuthenticationError", status: 401 });
    // x-request-id is only readable from another origin when the server exposes it.
    expect((report as HarnessFailure).requestId).toMatch(/\S/);
  });
});
