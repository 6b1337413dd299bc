/**
 * Security regressions of the delivery host, against a real `trove-server` process over loopback,
 * each attack tried with only the public key (or no key at all, as the delivery host allows):
 * - a folder named like a transformation must not let an upload replace another file's
 *   thumbnail or variants;
 * - an SVG holding script is served only with the sandboxing CSP and nosniff, and a no-op
 *   transform (`r_0`, `r_360`, `br_0`, `e_brightness:0`) cannot serve it without them;
 * - renders are admitted through a bounded gate (503 with Retry-After beyond it), and each file
 *   keeps a bounded number of stored variants.
 * Figures go to e2e/SECURITY.md.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gradientPng } from "../support/png";
import { reportFigures } from "../support/reliability-profile";
import { uploadRecord } from "../support/upload-record.js";

const SCRIPTED_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>fetch("/api/v1/files")</script></svg>';

async function upload(
  server: ServerProcess,
  key: string,
  fields: Record<string, string>,
  content: Uint8Array | string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new Blob([content as BlobPart]), fields.file_name ?? "upload");
  const response = await fetch(`${server.baseUrl}/api/v1/uploads`, {
    method: "POST",
    headers: { "x-api-key": key },
    body: form,
  });
  return { status: response.status, body: uploadRecord(await response.json()) };
}

function expectSandboxed(response: Response, what: string): void {
  expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(response.headers.get("content-security-policy"), what).toMatch(/default-src 'none'.*sandbox/);
}

async function countFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

describe("delivery host under attack (public key only)", () => {
  let server: ServerProcess;
  let assets: string;
  let catUrl: URL;
  let thumbnailUrl: URL;

  beforeAll(async () => {
    server = await startServerProcess({
      TROVE_RATE_LIMIT_MAX: "100000",
      TROVE_RENDER_CONCURRENCY: "1",
      TROVE_RENDER_QUEUE: "0",
      TROVE_MAX_VARIANTS_PER_FILE: "3",
    });
    const cat = await upload(
      server,
      server.keys.private,
      { file_name: "cat.png", folder: "photos" },
      gradientPng(300, 200),
    );
    expect(cat.status).toBe(200);
    catUrl = new URL(String(cat.body.url));
    thumbnailUrl = new URL(String(cat.body.thumbnail));
    assets = catUrl.href.slice(0, catUrl.href.indexOf("/photos/cat.png"));
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("a transform-shaped folder cannot replace another file's thumbnail or variants", async () => {
    const attacks = [
      "w_256,h_256,c_limit,f_webp/photos",
      "w_100/photos",
      "r_0/photos",
      "photos/w_100",
      "e_grayscale",
    ];
    for (const folder of attacks) {
      const attempt = await upload(
        server,
        server.keys.public,
        { file_name: "cat.png", folder },
        "attacker bytes",
      );
      expect(attempt.status, folder).toBe(400);
      expect(attempt.body, folder).toMatchObject({ success: false, errorCode: "VALIDATION_FAILED" });
      expect(String(attempt.body.message), folder).toMatch(/must not read as a transformation step/);
    }
    const thumbnail = await fetch(thumbnailUrl);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get("content-type")).toBe("image/webp");
    const webp = Buffer.from(await thumbnail.arrayBuffer());
    expect([webp.toString("latin1", 0, 4), webp.toString("latin1", 8, 12)]).toEqual(["RIFF", "WEBP"]);
    const variant = await fetch(`${assets}/w_100/photos/cat.png`);
    expect(variant.headers.get("content-type")).toBe("image/png");
    // A PNG's width is the first field of its IHDR chunk, at byte 16.
    expect(Buffer.from(await variant.arrayBuffer()).readUInt32BE(16)).toBe(100);
    reportFigures("security-folders", {
      attempts: attacks.length,
      refused: attacks.length,
    });
  });

  it("an SVG with script is never served without the sandbox, under any no-op transform", async () => {
    const svg = await upload(server, server.keys.public, { file_name: "logo.svg" }, SCRIPTED_SVG);
    expect(svg.status).toBe(200);
    expect(svg.body.mime_type).toBe("image/svg+xml");
    const plainUrl = String(svg.body.url);
    const plain = await fetch(plainUrl);
    expect(plain.status).toBe(200);
    expectSandboxed(plain, "plain URL");
    await plain.arrayBuffer();

    const name = plainUrl.slice(plainUrl.lastIndexOf("/") + 1);
    const noOps = ["r_0", "r_360", "br_0", "e_brightness:0", "e_contrast:0", "r_0/r_360", "w_10"];
    for (const transform of noOps) {
      const response = await fetch(`${assets}/${transform}/${name}`);
      expect(response.status, transform).toBe(400);
      expect(response.headers.get("content-type"), transform).toMatch(/^application\/json/);
      expectSandboxed(response, transform);
      expect(await response.text(), transform).not.toContain("<script>");
    }
    const missing = await fetch(`${assets}/nothing-here.svg`);
    expect(missing.status).toBe(404);
    expectSandboxed(missing, "404");
    reportFigures("security-active-content", { noOpTransformsTried: noOps.length, servedAsSvg: 0 });
  });

  it("admits renders through a bounded gate: 503 with Retry-After beyond it, never a 5xx otherwise", async () => {
    const big = await upload(server, server.keys.private, { file_name: "big.png" }, gradientPng(2000, 2000));
    expect(big.status).toBe(200);
    const requests = Array.from({ length: 8 }, (_, i) =>
      fetch(`${assets}/w_${1000 + i},br_max/big.png`).then(async (response) => ({
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        body: await response.text(),
      })),
    );
    const answers = await Promise.all(requests);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    // One slot and no queue: eight renders asked for at once cannot all be admitted.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    const refused = answers.filter((answer) => answer.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(answer.body)).toMatchObject({ error: "Service Unavailable" });
    }
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    reportFigures("security-render-gate", {
      concurrentRenders: answers.length,
      rendered: answers.length - refused.length,
      refused503: refused.length,
    });
  });

  it("keeps at most N stored variants per file however many distinct transforms are asked for", async () => {
    const variantsDir = join(server.dataDir, "storage", "variants");
    const before = await countFiles(variantsDir);
    let rendered = 0;
    for (let width = 20; width < 60; width++) {
      const response = await fetch(`${assets}/w_${width}/photos/cat.png`);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      rendered++;
    }
    // Eviction is amortised (apps/server/src/delivery/variant-store.ts): a file's variants are
    // counted once per 16 renders of it, or a second after its first unchecked one. So the burst
    // leaves at most 3 + 2 × 16 new variants (those not yet counted, and those of a count under
    // way), and 3 once the deferred count has run.
    const burst = await countFiles(variantsDir);
    expect(burst - before).toBeLessThanOrEqual(3 + 2 * 16);
    await vi.waitFor(async () => expect((await countFiles(variantsDir)) - before).toBeLessThanOrEqual(3), {
      timeout: 10_000,
      interval: 200,
    });
    // Three for cat.png at most (its thumbnail and w_100 from above were stored before).
    const after = await countFiles(variantsDir);
    expect(after - before).toBeLessThanOrEqual(3);
    reportFigures("security-variants", { distinctTransforms: rendered, storedAfter: after - before });
  });
});
