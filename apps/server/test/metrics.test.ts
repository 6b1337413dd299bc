// GET /metrics (TROVE_METRICS): a scripted workload, then a scrape parsed as Prometheus text and
// checked for the exact counts that workload must produce; the series count stays put under
// random-path scans; off serves nothing; a port of its own serves it there and not on the API.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNMATCHED_ROUTE } from "../src/metrics/request-labels.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { parseScrape, type Scrape } from "./support/scrape-metrics.js";
import { solid } from "./support/test-images.js";
import { directUpload, pathOf, uploaded } from "./uploads-helpers.js";

async function scrape(t: TestApp): Promise<Scrape> {
  const res = await t.app.inject({ method: "GET", url: "/metrics" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseScrape(res.body);
}

const randomPath = () => randomBytes(6).toString("hex");

describe("metrics on the API port after a scripted workload", () => {
  let t: TestApp;
  let metrics: Scrape;
  const uploadedSizes: number[] = [];
  let deliveredBytes = 0;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        metrics: { expose: "api" },
        trustedRanges: "127.0.0.0/8",
        rateLimit: { publicKeyAddressMax: 3 },
      },
    });
    const images = await Promise.all(
      [10, 20, 30].map((shade) => solid(16, 12, { r: shade, g: 40, b: 80 }, "png")),
    );

    // 3 direct uploads, the first with a webhook_url (a pending job: workers are off), then the
    // first one's bytes again under another name (a duplicate).
    const files = [];
    for (const [index, image] of images.entries()) {
      const fields: Record<string, string> = { file_name: `shade-${index}.png` };
      if (index === 0) fields.webhook_url = "http://127.0.0.1:9/hook";
      files.push(uploaded(await directUpload(t, fields, { content: image, type: "image/png" })));
    }
    const duplicate = uploaded(
      await directUpload(t, { file_name: "again.png" }, { content: images[0] as Buffer, type: "image/png" }),
    );
    expect(duplicate.is_duplicate).toBe(true);
    uploadedSizes.push(...files.map((file) => file.size), duplicate.size);

    // One upload refused for its type (a JSON body where a form is required): 415.
    const refused = await t.app.inject({
      method: "POST",
      url: "/api/v1/uploads",
      headers: { "x-api-key": t.keys.private, "content-type": "application/json" },
      payload: { file_name: "x.png" },
    });
    expect(refused.statusCode).toBe(415);

    // Deliveries: each file once, and one variant twice (a miss, then a hit).
    for (const file of files) {
      const res = await t.app.inject({ method: "GET", url: pathOf(file.url) });
      expect(res.statusCode).toBe(200);
      deliveredBytes += res.rawPayload.length;
    }
    const variantUrl = pathOf((files[0] as { url: string }).url).replace(
      `/${t.workspace.workspaceNo}/`,
      `/${t.workspace.workspaceNo}/w_8/`,
    );
    for (const expected of ["MISS", "HIT"]) {
      const res = await t.app.inject({ method: "GET", url: variantUrl });
      expect(res.statusCode).toBe(200);
      expect(res.headers["x-cache"]).toBe(expected);
      deliveredBytes += res.rawPayload.length;
    }

    // One multipart session left open.
    const started = await t.app.inject({
      method: "POST",
      url: "/api/v1/multipart/start",
      headers: { "x-api-key": t.keys.private },
      payload: { file_name: "big.bin", size: 1000, format: "application/octet-stream" },
    });
    expect(started.statusCode).toBe(200);

    // Scans: 5 unknown paths, 2 unknown files on the delivery host.
    for (let i = 0; i < 5; i++) {
      expect(
        (await t.app.inject({ method: "GET", url: `/${randomPath()}/${randomPath()}` })).statusCode,
      ).toBe(404);
    }
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: "GET", url: `/assets/${randomPath()}/${randomPath()}.png` });
      expect(res.statusCode).toBe(404);
    }

    // 5 requests of one public key from one address, whose visitor limit is 3: 2 refused.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/multipart/start",
        headers: { "x-api-key": t.keys.public },
        payload: { file_name: "", size: 0, format: "" },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 429, 429]);

    metrics = await scrape(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts requests by method, route pattern and status", () => {
    const requests = (route: string, status: number, method = "POST") =>
      metrics.value("trove_http_requests_total", { method, route, status: String(status) });
    expect(requests("/api/v1/uploads", 200)).toBe(4);
    expect(requests("/api/v1/uploads", 415)).toBe(1);
    expect(requests("/assets/*", 200, "GET")).toBe(5);
    expect(requests("/assets/*", 404, "GET")).toBe(2);
    expect(requests(UNMATCHED_ROUTE, 404, "GET")).toBe(5);
    expect(requests("/api/v1/multipart/start", 400)).toBe(3);
    expect(requests("/api/v1/multipart/start", 429)).toBe(2);
    expect(
      metrics.count("trove_http_request_duration_seconds", {
        method: "POST",
        route: "/api/v1/uploads",
        status: "200",
      }),
    ).toBe(4);
  });

  it("counts uploads by path and outcome, and their bytes", () => {
    expect(metrics.value("trove_uploads_total", { path: "direct", outcome: "stored" })).toBe(3);
    expect(metrics.value("trove_uploads_total", { path: "direct", outcome: "duplicate" })).toBe(1);
    expect(metrics.value("trove_uploads_total", { path: "direct", outcome: "refused" })).toBe(1);
    expect(metrics.value("trove_uploads_total", { path: "direct", outcome: "failed" })).toBeUndefined();
    const sum = uploadedSizes.reduce((a, b) => a + b, 0);
    expect(metrics.value("trove_uploaded_bytes_total", { path: "direct" })).toBe(sum);
  });

  it("counts delivered bytes, variant cache results and renders", () => {
    expect(metrics.value("trove_delivered_bytes_total")).toBe(deliveredBytes);
    expect(metrics.value("trove_variant_cache_total", { result: "miss" })).toBe(1);
    expect(metrics.value("trove_variant_cache_total", { result: "hit" })).toBe(1);
    expect(metrics.value("trove_renders_total", { outcome: "ok" })).toBe(1);
    expect(metrics.count("trove_render_duration_seconds")).toBe(1);
    expect(metrics.value("trove_render_queue_length")).toBe(0);
    expect(metrics.value("trove_renders_running")).toBe(0);
  });

  it("reads state gauges: open sessions, jobs, rate-limit refusals, the pool where there is one", () => {
    expect(metrics.value("trove_multipart_sessions_open")).toBe(1);
    expect(metrics.value("trove_jobs", { kind: "webhook", status: "pending" })).toBe(1);
    expect(metrics.value("trove_rate_limit_refusals_total", { layer: "visitor" })).toBe(2);
    const pool = metrics.value("trove_db_pool_connections", { state: "total" });
    if (t.app.dbKind === "postgres") expect(pool).toBeGreaterThan(0);
    else expect(metrics.labelSets("trove_db_pool_connections")).toEqual([]);
  });

  it("labels carry no raw path, workspace or key", async () => {
    const text = (await t.app.inject({ method: "GET", url: "/metrics" })).body;
    for (const secret of [
      t.workspace.id,
      t.workspace.workspaceNo,
      t.keys.private,
      t.keys.public,
      "shade-0",
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it("keeps the series count after 200 requests to random paths", async () => {
    await scrape(t); // the scrape's own series exist from here on
    const before = (await scrape(t)).seriesCount();
    for (let i = 0; i < 200; i++) {
      const url =
        i % 2 === 0
          ? `/${randomPath()}/${randomPath()}?${randomPath()}=${randomPath()}`
          : `/assets/${randomPath()}/${randomPath()}`;
      expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(404);
    }
    const after = await scrape(t);
    expect(after.seriesCount()).toBe(before);
    expect(
      after.value("trove_http_requests_total", { method: "GET", route: UNMATCHED_ROUTE, status: "404" }),
    ).toBe(105);
  });

  it("answers a flood of scrapes from anyone with at most one reading of the database gauges", async () => {
    // /metrics on the API port has no key: each scrape must not be a query of its own.
    await scrape(t);
    const job = t.app.db.job;
    const session = t.app.db.multipartSession;
    let reads = 0;
    // Counts each call and passes it on (Prisma's overloads do not survive a typed spread);
    // returns what undoes it.
    const counted = <T extends object>(target: T, method: keyof T & string): (() => void) => {
      const original = target[method];
      Object.assign(target, {
        [method]: (...args: unknown[]) => {
          reads += 1;
          return Reflect.apply(original as (...args: unknown[]) => unknown, target, args);
        },
      });
      return () => Object.assign(target, { [method]: original });
    };
    const restore = [counted(job, "groupBy"), counted(session, "count")];
    try {
      const scrapes = await Promise.all(
        Array.from({ length: 100 }, () => t.app.inject({ method: "GET", url: "/metrics" })),
      );
      expect(scrapes.every((res) => res.statusCode === 200)).toBe(true);
      // The first scrape above read both; these 100 share that reading, or one fresh one if the
      // reading expired in between.
      expect(reads).toBeLessThanOrEqual(2);
    } finally {
      for (const undo of restore) undo();
    }
  });
});

describe("where /metrics is served", () => {
  it("off (the default): no /metrics, nothing counted", async () => {
    const t = await createTestApp();
    try {
      expect(t.app.metrics).toBeNull();
      const res = await t.app.inject({ method: "GET", url: "/metrics" });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it("a port of its own: served on 127.0.0.1 there, 404 on the API port", async () => {
    const t = await createTestApp({ config: { metrics: { expose: "port", port: 0, host: "127.0.0.1" } } });
    try {
      await t.app.ready();
      const address = t.app.metricsServer?.address();
      if (!address || typeof address === "string") throw new Error("metrics listener not bound");
      expect(address.address).toBe("127.0.0.1");
      expect((await t.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);

      const base = `http://127.0.0.1:${address.port}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      const scraped = parseScrape(await res.text());
      // The API's 404 above was counted; the listener's own requests are not API requests.
      expect(
        scraped.value("trove_http_requests_total", { method: "GET", route: UNMATCHED_ROUTE, status: "404" }),
      ).toBe(1);
      expect((await fetch(`${base}/other`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(405);
    } finally {
      await t.close();
    }
  });
});
