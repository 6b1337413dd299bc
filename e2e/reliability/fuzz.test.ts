/**
 * Reliability 1: property-based fuzzing of every endpoint over real HTTP against the server
 * process. Properties: no 5xx, the process stays up, every error body has its group's envelope,
 * JSON content type; afterwards, the metrics' route labels are still only route patterns. Requests: `support/fuzz-requests.ts`. Short profile (`npm test`): 1,000
 * requests; long (`TROVE_LONG_TESTS=1`, CI): 5,000; full (`TROVE_RELIABILITY=full`): 10,000.
 * `TROVE_FUZZ_RUNS` and `TROVE_FUZZ_SEED` replay a reported run; `TROVE_FUZZ_LOG_LEVEL=info` logs
 * every request the server receives.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN_ENDPOINTS, ENDPOINTS } from "@trove/schema";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseScrape } from "../../apps/server/test/support/scrape-metrics.js";
import {
  checkFuzzResponse,
  describeRequest,
  type FuzzContext,
  type FuzzRequest,
  fuzzRequestArb,
  sendFuzzRequest,
} from "../support/fuzz-requests";
import { api, byProfile, PROFILE, reportFigures, uploadSmallFile } from "../support/reliability-profile";

// 1,000 in every `npm test`, 5,000 in CI's long stage, 10,000 in the full profile.
const RUNS = Number(process.env.TROVE_FUZZ_RUNS) || byProfile({ short: 1_000, long: 5_000, full: 10_000 });
// Replays a reported run: its `seed` (and the same RUNS) regenerate the same requests.
const SEED = process.env.TROVE_FUZZ_SEED ? Number(process.env.TROVE_FUZZ_SEED) : undefined;
const TIME_LIMIT_MS = byProfile({ short: 480_000, long: 480_000, full: 900_000 });
/** Routes outside the endpoint registries: health, readiness, OpenAPI, metrics, delivery, part gateway. */
const OTHER_ROUTES_AT_MOST = 15;

describe(`fuzzing every endpoint (${PROFILE} profile, ${RUNS} requests)`, () => {
  let server: ServerProcess;
  let ctx: FuzzContext;

  beforeAll(async () => {
    server = await startServerProcess({
      TROVE_RATE_LIMIT_MAX: "100000000",
      // Scraped at the end: the fuzzer's made-up paths must not grow the label sets.
      TROVE_METRICS: "on",
      // `info` logs every request: set it to see which requests reached the server.
      LOG_LEVEL: process.env.TROVE_FUZZ_LOG_LEVEL ?? "error",
    });
    const { baseUrl, keys } = server;
    const uploaded = await uploadSmallFile(baseUrl, keys.private, "seed.txt");
    const folder = await api(baseUrl, keys.private, "POST", "/api/v1/folders", { name: "seed-folder" });
    const source = await api(baseUrl, keys.private, "POST", "/api/v1/sources", {
      name: "seed-source",
      type: "image_source",
      configuration: { base_url: "http://127.0.0.1:1/img" },
    });
    const session = await api(baseUrl, keys.private, "POST", "/api/v1/multipart/start", {
      file_name: "parts.bin",
      size: 1024,
      format: "application/octet-stream",
    });
    expect(session.status).toBe(200);
    const sessionBody = session.body as { session_id: string; parts: string[] };
    ctx = {
      baseUrl,
      keys,
      fileNos: [String(uploaded.file_no)],
      folderNos: [String((folder.body as { folder_no: string }).folder_no)],
      sourceIds: [String((source.body as { data: { id: string } }).data.id)],
      sessionIds: [sessionBody.session_id],
      partUrl: sessionBody.parts[0] ?? "",
      partSize: 1024,
    };
    expect(ctx.partUrl.startsWith(baseUrl)).toBe(true);
  });

  afterAll(async () => {
    await server?.stop();
  });

  // Regression, found by this fuzzer: a NUL byte in a string query parameter of the list
  // endpoints reached PostgreSQL (which cannot store NUL) and answered 500.
  it("answers 400, not 500, for a NUL byte in list query values", async () => {
    const probes = [
      "/api/v1/folders?name=a%00b",
      "/api/v1/folders?parent_folder_no=a%00b",
      "/api/v1/files?name=a%00b",
      "/api/v1/files?path=a%00b",
      "/api/v1/files?folder_no=a%00b",
      "/api/v1/sources?search=a%00b",
    ];
    const statuses: Record<string, number> = {};
    for (const probe of probes) {
      const response = await fetch(`${ctx.baseUrl}${probe}`, { headers: { "x-api-key": ctx.keys.private } });
      await response.text();
      statuses[probe] = response.status;
    }
    const log = server.output().split("\n");
    reportFigures("nul-probes", {
      statuses,
      serverLog: log
        .filter((line) => /0x00|invalid byte|22021|\\u0000/i.test(line))
        .map((l) => l.slice(0, 400))
        .slice(0, 2),
    });
    expect(
      Object.values(statuses).every((status) => status === 400),
      JSON.stringify(statuses),
    ).toBe(true);
  });

  it(
    "answers every generated request without a 5xx, with its group's error envelope, and stays up",
    async () => {
      const statuses: Record<string, number> = {};
      const byEndpoint: Record<string, Record<string, number>> = {};
      const failures: { request: string; problems: string[]; status: number; before?: string[] }[] = [];
      // The requests just before a failure: a request can fail because of what its predecessor
      // did to the connection or to the server's state.
      const recent: string[] = [];
      let sent = 0;
      const started = Date.now();

      const property = fc.asyncProperty(fuzzRequestArb(ctx), async (req: FuzzRequest) => {
        let res: Awaited<ReturnType<typeof sendFuzzRequest>>;
        const before = [...recent];
        recent.push(`${new Date().toISOString()} ${describeRequest(req).slice(0, 400)}`);
        if (recent.length > 5) recent.shift();
        try {
          res = await sendFuzzRequest(ctx, req);
        } catch (cause) {
          // No answer at all (connection reset, timeout): a failure too, recorded with its request.
          const problem = `no response: ${String(cause)} ${String((cause as { cause?: unknown }).cause ?? "")}`;
          if (failures.length < 50)
            failures.push({ request: describeRequest(req), problems: [problem], status: 0, before });
          throw new Error(`${describeRequest(req)}\n→ ${problem}`);
        }
        sent += 1;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const perEndpoint = byEndpoint[req.label] ?? {};
        perEndpoint[res.status] = (perEndpoint[res.status] ?? 0) + 1;
        byEndpoint[req.label] = perEndpoint;
        const { problems } = checkFuzzResponse(req, res);
        if (problems.length > 0) {
          if (failures.length < 50)
            failures.push({ request: describeRequest(req), problems, status: res.status });
          throw new Error(
            `${describeRequest(req)}\n→ ${res.status} ${res.text.slice(0, 500)}\n${problems.join("\n")}`,
          );
        }
        if (sent % 200 === 0) {
          const health = await fetch(`${ctx.baseUrl}/healthz`);
          if (health.status !== 200) throw new Error(`/healthz ${health.status} after ${sent} requests`);
        }
      });

      let error: unknown;
      try {
        await fc.assert(property, {
          numRuns: RUNS,
          ...(SEED === undefined ? {} : { seed: SEED }),
          endOnFailure: false,
          interruptAfterTimeLimit: TIME_LIMIT_MS,
        });
      } catch (e) {
        error = e;
      }
      const health = await fetch(`${ctx.baseUrl}/healthz`);
      reportFigures("fuzz", {
        profile: PROFILE,
        requests: sent,
        durationMs: Date.now() - started,
        statuses,
        byEndpoint,
        healthzAfter: health.status,
        failures,
      });
      if (error) {
        // The server's log shows whether a request that got no answer ever reached it.
        const logFile =
          process.env.TROVE_FUZZ_DUMP ?? join(tmpdir(), `trove-reliability-fuzz-${PROFILE}-server.log`);
        writeFileSync(logFile, server.output());
        console.log(`[reliability] fuzz server log → ${logFile}`);
        throw error;
      }
      expect(health.status).toBe(200);
      expect(sent).toBeGreaterThanOrEqual(RUNS);
      expect(server.output()).not.toMatch(/FATAL|uncaught|unhandled/i);
    },
    TIME_LIMIT_MS + 60_000,
  );

  // After the fuzzer's requests (made-up paths, ids, methods and query strings): every request is
  // counted under its route's pattern or `unmatched`, so the label sets stay as small as the
  // server's route table. A raw path as a label would add a series for nearly every request.
  it("keeps the metrics' route labels to the server's route patterns", async () => {
    const response = await fetch(`${ctx.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    const labelSets = parseScrape(await response.text()).labelSets("trove_http_requests_total");
    const routes = new Set(labelSets.map((labels) => labels.route));
    reportFigures("fuzz-metrics", { series: labelSets.length, routes: routes.size });
    expect(routes.has("unmatched")).toBe(true);
    expect(routes.size).toBeLessThanOrEqual(ENDPOINTS.length + ADMIN_ENDPOINTS.length + OTHER_ROUTES_AT_MOST);
    for (const route of routes) expect(route).toMatch(/^(unmatched|\/[\w/:*.-]*)$/);
    for (const labels of labelSets) expect(labels.status).toMatch(/^[1-5]\d\d$/);
  });
});
