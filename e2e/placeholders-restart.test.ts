/**
 * Placeholders survive a restart (issue #34 part 3): a trove-server without workers takes an image
 * upload and stops with the placeholder still to compute; a new process on the same data
 * directory, with workers, computes it: the pending mark lives in the file's own row, not in
 * memory. A real `trove-server` over loopback, twice on one data directory.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LaunchedServer, launchServer, randomKey } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "./support/png";
import { uploadRecord } from "./support/upload-record.js";

const keys = { public: randomKey("pk"), private: randomKey("sk") };
let dataDir: string;
let server: LaunchedServer | undefined;

function launch(env: Record<string, string>): Promise<LaunchedServer> {
  return launchServer({
    env: { LOG_LEVEL: "warn", ...env },
    keys,
    dataDir,
    readyTimeoutMs: 100_000,
    keepOutput: 200_000,
    stopGraceMs: Number.POSITIVE_INFINITY,
  });
}

async function details(base: string, fileNo: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}/api/v1/files/${fileNo}`, { headers: { "x-api-key": keys.private } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "trove-placeholders-"));
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("placeholders across a restart", () => {
  it("an image uploaded before a restart gets its placeholder from the next process", async () => {
    server = await launch({ TROVE_WORKERS: "false" });
    const form = new FormData();
    form.set("file_name", "gradient.png");
    form.set("file", new Blob([new Uint8Array(gradientPng(120, 80))], { type: "image/png" }), "gradient.png");
    const res = await fetch(`${server.baseUrl}/api/v1/uploads`, {
      method: "POST",
      headers: { "x-api-key": keys.private },
      body: form,
    });
    expect(res.status).toBe(200);
    const uploaded = uploadRecord(await res.json());
    expect(uploaded.placeholder).toBeNull();
    const fileNo = String(uploaded.file_no);
    // No workers: nothing computes it in this process.
    expect((await details(server.baseUrl, fileNo)).placeholder).toBeNull();
    await server.stop();

    server = await launch({ TROVE_JOB_POLL_INTERVAL_MS: "100" });
    const deadline = Date.now() + 60_000;
    let placeholder: unknown = null;
    while (placeholder === null && Date.now() < deadline) {
      placeholder = (await details(server.baseUrl, fileNo)).placeholder;
      if (placeholder === null) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(placeholder).toMatchObject({
      thumbhash: expect.any(String),
      color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      data_url: expect.stringMatching(/^data:image\/webp;base64,/),
    });
  });
});
