/**
 * Reliability 1: property-based fuzzing of every endpoint over real HTTP against the server
 * process. Properties: no 5xx, the process stays up, every error body has its group's envelope,
 * JSON content type. Requests: `support/fuzz-requests.ts`. Short profile: 1,000 requests; full
 * (`TROVE_RELIABILITY=full`): 6,000.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkFuzzResponse,
  describeRequest,
  type FuzzContext,
  type FuzzRequest,
  fuzzRequestArb,
  sendFuzzRequest,
} from "../support/fuzz-requests";
import { api, FULL, PROFILE, reportFigures, uploadSmallFile } from "../support/reliability-profile";
import { type ServerProcess, startServerProcess } from "../support/server-process";

const RUNS = FULL ? 6_000 : 1_000;

describe(`fuzzing every endpoint (${PROFILE} profile, ${RUNS} requests)`, () => {
  let server: ServerProcess;
  let ctx: FuzzContext;

  beforeAll(async () => {
    server = await startServerProcess({ TROVE_RATE_LIMIT_MAX: "100000000", LOG_LEVEL: "error" });
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

  it("answers every generated request without a 5xx, with its group's error envelope, and stays up", async () => {
    const statuses: Record<string, number> = {};
    const byEndpoint: Record<string, Record<string, number>> = {};
    const failures: { request: string; problems: string[]; status: number }[] = [];
    const knownDiscrepancies: Record<string, number> = {};
    let sent = 0;
    const started = Date.now();

    const property = fc.asyncProperty(fuzzRequestArb(ctx), async (req: FuzzRequest) => {
      const res = await sendFuzzRequest(ctx, req);
      sent += 1;
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const perEndpoint = byEndpoint[req.label] ?? {};
      perEndpoint[res.status] = (perEndpoint[res.status] ?? 0) + 1;
      byEndpoint[req.label] = perEndpoint;
      const { problems, known } = checkFuzzResponse(req, res);
      for (const k of known) knownDiscrepancies[k] = (knownDiscrepancies[k] ?? 0) + 1;
      if (problems.length > 0) {
        if (failures.length < 50) failures.push({ request: describeRequest(req), problems, status: res.status });
        throw new Error(`${describeRequest(req)}\n→ ${res.status} ${res.text.slice(0, 500)}\n${problems.join("\n")}`);
      }
      if (sent % 200 === 0) {
        const health = await fetch(`${ctx.baseUrl}/healthz`);
        if (health.status !== 200) throw new Error(`/healthz ${health.status} after ${sent} requests`);
      }
    });

    let error: unknown;
    try {
      await fc.assert(property, { numRuns: RUNS, endOnFailure: false, interruptAfterTimeLimit: FULL ? 900_000 : 150_000 });
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
      knownDiscrepancies,
      failures,
    });
    if (error) throw error;
    expect(health.status).toBe(200);
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    expect(server.output()).not.toMatch(/FATAL|uncaught|unhandled/i);
  });
});
